// A container's stdio FIFOs live in its state dir (<state>/containers/<id>/<id>-stdout), which
// belongs to the container record: after a restart the output still reaches the log, also for a
// container an earlier berth started with its FIFOs in <state>/containers/<id>/io, and the end of
// a reattached container's output removes its FIFOs, never the directory they are in.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from './probes';
import { createBerthEnv, type BerthEnv } from './berth_env';

jest.setTimeout(300_000);

/** Prints "before", then "after" once /trigger/go exists, then sleeps. */
const SPEAKS_ON_TRIGGER = ['sh', '-c', 'echo before; while [ ! -e /trigger/go ]; do sleep 0.1; done; echo after; exec sleep 3600'];

const logged = (logPath: string): string[] =>
  existsSync(logPath) ? [...readFileSync(logPath, 'utf8').matchAll(/ stdout F (\w+)\n/g)].map((m) => m[1]!) : [];

describe('a container whose FIFOs an earlier berth made in <state dir>/io', () => {
  let env: BerthEnv;
  afterAll(async () => env?.close());

  it('gets its output into its log after berthd restarts', async () => {
    env = await createBerthEnv();
    await env.start();
    const trigger = join(env.dir, 'trigger');
    mkdirSync(trigger);
    const { podId, config } = await env.runPod('legacy-fifos');
    const id = await env.create(podId, config, 'app', SPEAKS_ON_TRIGGER, {
      mounts: [{ container_path: '/trigger', host_path: trigger, readonly: true }],
    });
    await env.client.runtime.StartContainer({ container_id: id });
    const logPath = (await env.status(id)).log_path;
    await until(`"before" in ${logPath}`, () => logged(logPath).includes('before'));
    const stateDir = join(env.daemon.state, 'containers', id);
    const fifos = readdirSync(stateDir).filter((n) => n.startsWith(`${id}-`));
    expect(fifos.sort()).toEqual([`${id}-stderr`, `${id}-stdout`]); // no io/ of their own now

    // The layout an earlier berth left: the shim keeps writing through the fds it holds.
    await env.daemon.kill();
    env.client.close();
    mkdirSync(join(stateDir, 'io'));
    for (const name of fifos) renameSync(join(stateDir, name), join(stateDir, 'io', name));

    await env.start();
    expect((await env.status(id)).state).toBe('CONTAINER_RUNNING');
    writeFileSync(join(trigger, 'go'), '');
    await until(`"after" in ${logPath}`, () => logged(logPath).includes('after'));
    expect(logged(logPath)).toEqual(['before', 'after']);
    expect(env.daemon.stderr()).not.toContain('cannot reattach container output');
  });

  it("removes a reattached container's FIFOs when it stops, and keeps its state dir until RemoveContainer", async () => {
    const { podId, config } = await env.runPod('reattached-stop');
    const id = await env.create(podId, config, 'app', SPEAKS_ON_TRIGGER, {
      mounts: [{ container_path: '/trigger', host_path: join(env.dir, 'trigger'), readonly: true }],
    });
    await env.client.runtime.StartContainer({ container_id: id });
    const stateDir = join(env.daemon.state, 'containers', id);
    await env.daemon.kill();
    env.client.close();
    await env.start();

    await env.client.runtime.StopContainer({ container_id: id, timeout: 0 });
    expect((await env.status(id)).state).toBe('CONTAINER_EXITED');
    await until(`the FIFOs of ${id} to be removed`, () => readdirSync(stateDir).every((n) => !n.startsWith(`${id}-`)));
    expect(existsSync(stateDir)).toBe(true);
    await env.client.runtime.RemoveContainer({ container_id: id });
  });
});
