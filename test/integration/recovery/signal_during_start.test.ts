// A SIGTERM while berthd is still starting (listening already, recovery waiting on a shim) ends it at
// once and cleanly: exit status 0, no socket files left behind (Node's default action for the signal
// left them, as a crash does), and the next start recovers the pod as after a crash.
// The pod's shim is stopped (SIGSTOP) while berthd starts, so recovery cannot end before the signal.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accepts, processAndShim, until } from './probes';
import { createBerthEnv, SLEEPER, type BerthEnv } from './berth_env';

jest.setTimeout(300_000);

describe('a signal while berthd starts', () => {
  let env: BerthEnv;
  let stoppedShim: number | undefined;

  afterAll(async () => {
    if (stoppedShim !== undefined) process.kill(stoppedShim, 'SIGCONT');
    await env?.close();
  });

  it('ends it at once, leaving no socket files; the next start recovers the pod', async () => {
    env = await createBerthEnv();
    await env.start();
    const { podId, config } = await env.runPod('signal-during-start');
    const id = await env.create(podId, config, 'app', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: id });
    const { shim } = await processAndShim(env.client, id);
    const { socket, root } = env.host();
    const lock = join(root, 'berthd.lock');

    await env.daemon.kill();
    env.client.close();
    process.kill(shim, 'SIGSTOP');
    stoppedShim = shim;

    const starting = env.start();
    const outcome = starting.then(
      () => 'served',
      (err: Error) => err.message,
    );
    // Listening on both sockets (the crash left the events socket's file, refusing until the new
    // berthd listens on it, just before recovery), and recovery held by the stopped shim (its State
    // gives up only after 10 s).
    await until('berthd to accept connections', async () => (await accepts(socket)) && accepts(`${socket}.ttrpc`));
    const pid = Number(readFileSync(lock, 'utf8').trim());
    process.kill(pid, 'SIGTERM');
    // The harness reports how berthd exited before serving.
    const message = await outcome;
    expect(message).toContain('berthd exited ({"code":0,"signal":null}) before serving');
    expect(message).toContain('"duringStartUp":true');
    expect(existsSync(`/proc/${shim}`) && stoppedShim).toBe(shim); // it did not wait for the shim
    expect({ socket: existsSync(socket), ttrpc: existsSync(`${socket}.ttrpc`) }).toEqual({ socket: false, ttrpc: false });

    process.kill(shim, 'SIGCONT');
    stoppedShim = undefined;
    await env.start();
    const status = (await env.client.runtime.ContainerStatus({ container_id: id })).status!;
    expect(status.state).toBe('CONTAINER_RUNNING');
  });
});
