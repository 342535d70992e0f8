// berthctl: berthd's client for day-2 work. It always goes through the daemon's socket (CRI, plus
// berth.admin.v1 for what the CRI has no verb for) and never opens the metadata database itself,
// so it cannot corrupt or race a running daemon's state. Verbs, flags and output follow crictl's
// where crictl has the verb. Each verb's module (and grpc-js) is loaded only when that verb runs,
// so `--help` and completion answer at once.
import { Command, CommanderError, Option } from 'commander';
import type { DaemonClient } from './client';
import { EXIT_OK, EXIT_USAGE } from './errors';

const DEFAULT_ADDRESS = '/run/berth/berth.sock';

/* eslint-disable @typescript-eslint/no-require-imports */
const images = () => require('./commands/images') as typeof import('./commands/images');
const pods = () => require('./commands/pods') as typeof import('./commands/pods');
const containers = () => require('./commands/containers') as typeof import('./commands/containers');
const logs = () => require('./commands/logs') as typeof import('./commands/logs');
const runtime = () => require('./commands/runtime') as typeof import('./commands/runtime');
const space = () => require('./commands/space') as typeof import('./commands/space');
/* eslint-enable @typescript-eslint/no-require-imports */

const collect = (value: string, previous: string[]) => [...previous, value];

/** The verb's options; commander stores --no-trunc as trunc=false. */
function withNoTrunc(cmd: Command): never {
  const opts = cmd.opts<Record<string, unknown>>();
  return { ...opts, noTrunc: opts.trunc === false } as never;
}

function socketOf(cmd: Command): string {
  const { address, runtimeEndpoint } = cmd.optsWithGlobals<{ address: string; runtimeEndpoint?: string }>();
  // crictl's -r unix:///path names the same socket.
  const raw = runtimeEndpoint !== undefined ? runtimeEndpoint.replace(/^unix:\/\//, '') : address;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('node:path') as typeof import('node:path')).resolve(raw);
}

/** An action that runs `fn` against berthd and leaves its exit code in process.exitCode. */
function onDaemon<A extends unknown[]>(fn: (c: DaemonClient, cmd: Command, ...args: A) => Promise<number | void>) {
  return async (...args: unknown[]) => {
    const cmd = args.at(-1) as Command;
    const positional = args.slice(0, -2) as A;
    const verb = cmd.parent && cmd.parent.parent ? `${cmd.parent.name()} ${cmd.name()}` : cmd.name();
    const address = socketOf(cmd);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { runVerb } = require('./client_run') as typeof import('./client_run');
    process.exitCode = await runVerb(verb, { address }, (c) => fn(c, cmd, ...positional));
  };
}

const outputOption = (defaultFormat: string, formats = 'json|yaml|table') =>
  new Option('-o, --output <format>', `output format, one of: ${formats}`).default(defaultFormat);

function imageCommands(program: Command): void {
  const group = program.command('images').alias('image').alias('img').description('list, pull, remove, import and export images');

  const ls = (cmd: Command) =>
    cmd
      .argument('[repository]', 'only images matching REPOSITORY[:TAG]')
      .option('-v, --verbose', 'show verbose info for images')
      .option('-q, --quiet', 'only show image IDs')
      .addOption(outputOption('table'))
      .option('--digests', 'show digests')
      .option('--no-trunc', 'show output without truncating the ID')
      .action(onDaemon((c, cmd, repository?: string) => images().listImages(c, repository, withNoTrunc(cmd))));
  ls(group.command('ls', { isDefault: true }).alias('list').description('list images'));

  const pull = (cmd: Command) =>
    cmd
      .argument('<image>', 'NAME[:TAG|@DIGEST]')
      .option('--creds <user[:password]>', 'credentials for the registry')
      .option('--auth <auth>', "base64 of 'USERNAME[:PASSWORD]' for the registry")
      .action(onDaemon((c, cmd, image: string) => images().pullImage(c, image, cmd.opts())));
  pull(group.command('pull').description('pull an image from a registry (a progress bar on a terminal)'));
  pull(program.command('pull').description('pull an image from a registry (same as images pull)'));

  const rm = (cmd: Command) =>
    cmd
      .argument('[images...]', 'references, IDs or ID prefixes')
      .option('-a, --all', 'remove all images')
      .option('-q, --prune', 'remove all images no container uses')
      .action(onDaemon((c, cmd, refs: string[]) => images().removeImages(c, cmd.name(), socketOf(cmd), refs, cmd.opts())));
  rm(group.command('rm').alias('rmi').description('remove one or more images'));
  rm(program.command('rmi').description('remove one or more images (same as images rm)'));

  group
    .command('import')
    .description("import an OCI or docker archive (FILE is read by berthd, on this host)")
    .argument('<file>', 'the archive (.tar)')
    .option('--name <ref>', 'name to give the image (default: the names recorded in the archive)')
    .action(onDaemon((c, cmd, file: string) => images().importImage(c, file, cmd.opts<{ name?: string }>().name)));

  group
    .command('export')
    .description('write an image as an OCI archive (ImportImage and ctr import take it back)')
    .argument('<image>', 'reference, ID or ID prefix')
    .argument('[file]', 'where to write it; - for stdout', '-')
    .action(onDaemon((c, _cmd, image: string, file: string) => images().exportImage(c, image, file)));
}

function listFlags(cmd: Command): Command {
  return cmd
    .option('--id <id>', 'filter by ID')
    .option('--name <regexp>', 'filter by name regular expression pattern')
    .option('-s, --state <state>', 'filter by state')
    .option('--label <key=value>', 'filter by key=value label (repeatable)', collect, [])
    .option('-v, --verbose', 'show verbose information')
    .option('-q, --quiet', 'only show IDs')
    .addOption(outputOption('table'))
    .option('-l, --latest', 'show the most recently created one')
    .option('-n, --last <n>', 'show the last n recently created ones; 0 for all')
    .option('--no-trunc', 'show output without truncating IDs');
}

function podCommands(program: Command): void {
  listFlags(program.command('pods').description('list pods'))
    .option('--namespace <regexp>', 'filter by pod namespace regular expression pattern')
    .action(onDaemon((c, cmd) => pods().listPods(c, withNoTrunc(cmd))));
  program
    .command('inspectp')
    .description('display the status of one or more pods')
    .argument('<pods...>', 'pod IDs or ID prefixes')
    .addOption(outputOption('json'))
    .option('-q, --quiet', 'do not show verbose information')
    .action(onDaemon((c, cmd, ids: string[]) => pods().inspectPods(c, ids, cmd.opts() as never)));
  program
    .command('stopp')
    .description('stop one or more running pods')
    .argument('<pods...>', 'pod IDs or ID prefixes')
    .action(onDaemon((c, _cmd, ids: string[]) => pods().stopPods(c, ids)));
  program
    .command('rmp')
    .description('remove one or more pods')
    .argument('[pods...]', 'pod IDs or ID prefixes')
    .option('-f, --force', 'stop a running pod first')
    .option('-a, --all', 'remove all pods')
    .action(onDaemon((c, cmd, ids: string[]) => pods().removePods(c, cmd.name(), socketOf(cmd), ids, cmd.opts())));
}

function containerCommands(program: Command): void {
  listFlags(program.command('ps').description('list containers (running ones unless -a)'))
    .option('-a, --all', 'show all containers')
    .option('-p, --pod <id>', 'filter by pod ID')
    .option('--image <image>', 'filter by image')
    .action(onDaemon((c, cmd) => containers().listContainers(c, withNoTrunc(cmd))));
  program
    .command('inspect')
    .description('display the status of one or more containers')
    .argument('<containers...>', 'container IDs or ID prefixes')
    .addOption(outputOption('json'))
    .option('-q, --quiet', 'do not show verbose information')
    .action(onDaemon((c, cmd, ids: string[]) => containers().inspectContainers(c, ids, cmd.opts() as never)));
  program
    .command('logs')
    .description("print a container's log (its CRI log file, on this host)")
    .argument('<container>', 'container ID or ID prefix')
    .option('-f, --follow', 'follow log output until the container stops')
    .option('--tail <n>', 'number of lines to show from the end; -1 for all', '-1')
    .option('-t, --timestamps', 'show timestamps')
    .option('-p, --previous', 'the log of the previous instance (attempt - 1)')
    .action(onDaemon((c, cmd, id: string) => logs().containerLogs(c, id, cmd.opts() as never)));
  program
    .command('stop')
    .description('stop one or more running containers')
    .argument('<containers...>', 'container IDs or ID prefixes')
    .option('-t, --timeout <seconds>', 'seconds to wait before killing the container')
    .action(onDaemon((c, cmd, ids: string[]) => containers().stopContainers(c, ids, cmd.opts<{ timeout?: string }>().timeout)));
  program
    .command('rm')
    .description('remove one or more containers')
    .argument('[containers...]', 'container IDs or ID prefixes')
    .option('-f, --force', 'stop a running container first')
    .option('-a, --all', 'remove all containers')
    .action(onDaemon((c, cmd, ids: string[]) => containers().removeContainers(c, cmd.name(), socketOf(cmd), ids, cmd.opts())));
}

function runtimeCommands(program: Command): void {
  program.command('version').description("the runtime's name and versions").action(onDaemon((c) => runtime().version(c)));
  program.command('status').description('runtime and network conditions, handlers and info, as JSON').action(onDaemon((c) => runtime().status(c)));
  program
    .command('info')
    .description('display information of the container runtime (crictl info)')
    .addOption(outputOption('json', 'json|yaml'))
    .option('-q, --quiet', 'do not show verbose information')
    .action(onDaemon((c, cmd) => runtime().info(c, cmd.opts() as never)));
  program
    .command('gc')
    .description('remove content blobs and layer snapshots no image references')
    .addOption(outputOption('table'))
    .option('-v, --verbose', 'list what was removed')
    .action(onDaemon((c, cmd) => space().garbageCollect(c, cmd.opts() as never)));
  program
    .command('du')
    .description("disk space used by images, layer snapshots, containers' writable layers and logs")
    .addOption(outputOption('table'))
    .option('-v, --verbose', 'also each container')
    .action(onDaemon((c, cmd) => space().diskUsage(c, cmd.opts() as never)));
}

function buildProgram(): Command {
  const program = new Command('berthctl')
    .description("berthd's client: images, pods, containers, logs, garbage collection, disk usage")
    .addOption(new Option('--address <sock>', "berthd's socket").default(DEFAULT_ADDRESS).env('BERTH_ADDRESS'))
    .option('-r, --runtime-endpoint <endpoint>', "crictl's spelling of --address: unix:///path")
    .showSuggestionAfterError()
    .addHelpText(
      'after',
      '\nExit codes: 0 done, 1 the operation failed (berthd\'s gRPC code is named), 2 usage, 3 berthd unreachable.',
    );
  imageCommands(program);
  podCommands(program);
  containerCommands(program);
  runtimeCommands(program);
  program
    .command('completion')
    .description('print a shell completion script (bash)')
    .argument('<shell>', 'bash')
    .action((shell: string) => {
      if (shell !== 'bash') {
        process.stderr.write(`berthctl: completion: unsupported shell ${JSON.stringify(shell)}: bash\n`);
        process.exitCode = EXIT_USAGE;
        return;
      }
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      process.stdout.write((require('./completion') as typeof import('./completion')).bashCompletion(program));
    });
  // Usage errors exit 2 (commander's default is 1, which is berthctl's "the operation failed").
  const exitOverride = (cmd: Command) => {
    cmd.exitOverride();
    cmd.configureOutput({ outputError: (text, write) => write(`berthctl: ${text.replace(/^error: /, '')}`) });
    for (const sub of cmd.commands) exitOverride(sub);
  };
  exitOverride(program);
  return program;
}

async function main(): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version asked for are not errors; help shown for a missing verb is.
      const asked = err.code === 'commander.helpDisplayed' || err.code === 'commander.version';
      process.exitCode = asked ? EXIT_OK : EXIT_USAGE;
      return;
    }
    throw err;
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`berthctl: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
