// berthd: the berth CRI runtime server. Flags override the config file; see --help.
import { parseArgs } from 'node:util';
import { applyFlags, loadConfig } from '../../internal/config';
import { messageOf } from '../../internal/errdefs/errors';
import { restoreDeferredExtraCaCerts } from '../../internal/images/pull/extra_ca';
import { createLogger } from '../../internal/log/logger';
import { systemdNotifier } from '../../internal/systemd/notifier';
import { installCrashPolicy } from './crash_policy';
import { createDaemon } from './daemon';
import { reportOnSigusr1, takeSigusr1 } from './diagnostics_signal';
import { injectFaultFromEnv } from './fault_injection';
import { exitNow } from '../../internal/sys/exit';

const USAGE = `usage: berthd [--config FILE] [--address SOCK] [--root DIR] [--state DIR] [--log-level LEVEL]

  --config FILE       berth.toml (default: none, built-in defaults; see configs/berth.toml)
  --address SOCK      CRI socket path (default /run/berth/berth.sock)
  --root DIR          persistent data: metadata.db, content, snapshots (default /var/lib/berth)
  --state DIR         runtime state: bundles, FIFOs, netns (default /run/berth)
  --log-level LEVEL   trace | debug | info | warn | error (default info)
  -h, --help          this text
`;

function fail(message: string): never {
  process.stderr.write(`berthd: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  // First: until then SIGUSR1 would open Node's inspector (diagnostics_signal.ts).
  takeSigusr1();
  // bin/berthd kept it from Node's start-up (extra_ca.ts); children and pulls see it as before.
  restoreDeferredExtraCaCerts();
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        config: { type: 'string' },
        address: { type: 'string' },
        root: { type: 'string' },
        state: { type: 'string' },
        'log-level': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    process.stderr.write(USAGE);
    fail(messageOf(err));
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }

  let config;
  try {
    config = applyFlags(loadConfig(values.config), {
      address: values.address,
      root: values.root,
      state: values.state,
      logLevel: values['log-level'],
    });
  } catch (err) {
    fail(messageOf(err));
  }

  const logger = createLogger({ level: config.log_level });
  installCrashPolicy(logger);
  reportOnSigusr1(logger, config.state);
  // Before the daemon exists: it reads (and removes) NOTIFY_SOCKET before any child could inherit it.
  const notifier = systemdNotifier(logger);
  // Every way out of main after stop() is process.exit (see onSignal).
  const daemon = createDaemon(config, { logger, exitAfterStop: true });
  let serving = false;
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn('second signal while stopping; exiting now', { signal });
      process.exit(1);
    }
    stopping = true;
    logger.info('stopping', { signal, duringStartUp: !serving });
    notifier.stopping();
    if (!serving) {
      // Recovery may be waiting on a shim: leave now rather than after it, as a crash would, but
      // without the socket files a crash leaves behind.
      daemon.abandonStart();
      process.exit(0);
    }
    daemon.stop().then(
      // Stopped: the database's commits durable, the socket files removed, the log written (synchronously).
      () => exitNow(0),
      (err: unknown) => {
        logger.error('stop failed', { error: messageOf(err) });
        process.exit(1);
      },
    );
  };
  // From before start(): Node's default action would end the process with its socket file left.
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  try {
    await daemon.start();
  } catch (err) {
    logger.error('berthd failed to start', { error: messageOf(err) });
    fail(messageOf(err));
  }
  serving = true;
  // start() resolves once recovery is done and the server answers calls.
  notifier.ready(`serving on ${config.address}`);
  injectFaultFromEnv();
}

void main();
