// A client that connects while a restarted berthd is still recovering is accepted and held, and its
// call is answered once recovery is done, with what recovery found: berthd listens before it
// reconnects its shims (a kubelet is not refused into its reconnect backoff), and answers no call
// before recovery. The pod's shim is stopped (SIGSTOP) while berthd starts, so recovery cannot end
// until the test lets it continue.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { criClient } from '../../harness/cri_client';
import { accepts, processAndShim, until } from './probes';
import { createBerthEnv, type BerthEnv } from './berth_env';

jest.setTimeout(300_000);

/** Waits for /trigger/go (made after berthd is killed), then exits 7. */
const EXITS_ON_TRIGGER = ['sh', '-c', 'while [ ! -e /trigger/go ]; do sleep 0.1; done; exit 7'];

describe('a client connecting while berthd recovers', () => {
  let env: BerthEnv;
  let stoppedShim: number | undefined;

  afterAll(async () => {
    if (stoppedShim !== undefined) process.kill(stoppedShim, 'SIGCONT');
    await env?.close();
  });

  it('is held, then answered with what recovery found', async () => {
    env = await createBerthEnv();
    await env.start();
    const trigger = join(env.dir, 'trigger');
    mkdirSync(trigger);
    const { podId, config } = await env.runPod('early-connect');
    const id = await env.create(podId, config, 'app', EXITS_ON_TRIGGER, {
      mounts: [{ container_path: '/trigger', host_path: trigger, readonly: true }],
    });
    await env.client.runtime.StartContainer({ container_id: id });
    const { pid, shim } = await processAndShim(env.client, id);

    await env.daemon.kill();
    env.client.close();
    writeFileSync(join(trigger, 'go'), '');
    await until(`container process ${pid} to be reaped`, () => !existsSync(`/proc/${pid}`));
    process.kill(shim, 'SIGSTOP');
    stoppedShim = shim;

    const socket = env.host().socket;
    const starting = env.start();
    // berthd cannot serve before the shim answers its State (10 s before that call gives up).
    await until('berthd to accept connections', () => accepts(socket));
    const early = criClient(socket);
    try {
      // The HTTP/2 handshake completes on the held connection (the server preface routeConnection sends).
      await new Promise<void>((resolve, reject) =>
        early.raw.runtime.waitForReady(Date.now() + 60_000, (err) => (err ? reject(err) : resolve())),
      );
      const status = early.runtime.ContainerStatus({ container_id: id }, { deadline: Date.now() + 120_000 });
      process.kill(shim, 'SIGCONT');
      stoppedShim = undefined;
      const first = (await status).status!;
      // Not the RUNNING of its record: recovery asked the shim before this call was answered.
      expect({ state: first.state, exit_code: first.exit_code }).toEqual({ state: 'CONTAINER_EXITED', exit_code: 7 });
      await starting;
      expect(env.daemon.stderr()).not.toContain('recovering container failed');
    } finally {
      early.close();
    }
  });
});
