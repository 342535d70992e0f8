// Restart consistency: a container that exits while berthd is down (kill -9) must read EXITED with
// its real exit code on the very first ContainerStatus once berthd serves again, as containerd's
// loadContainer does, with every line it printed in its CRI log exactly once. The events socket
// shims publish to is 0600 even when berthd runs under umask 0.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from './probes';
import { createBerthEnv, type BerthEnv } from './berth_env';

jest.setTimeout(300_000);

const LINES = 50;
/** Prints LINES numbered lines, then waits for /trigger/go (made after berthd is killed), then exits 7. */
const EXITS_ON_TRIGGER = [
  'sh',
  '-c',
  `i=0; while [ $i -lt ${LINES} ]; do i=$((i+1)); echo line $i; done; while [ ! -e /trigger/go ]; do sleep 0.1; done; exit 7`,
];

function loggedLines(logPath: string): string[] {
  if (!existsSync(logPath)) return [];
  return [...readFileSync(logPath, 'utf8').matchAll(/ stdout F (line \d+)\n/g)].map((m) => m[1]!);
}

describe('a container that exited while berthd was down', () => {
  let env: BerthEnv;
  let savedUmask: number;

  beforeAll(() => {
    // berthd inherits it: nothing it creates for others to reach may depend on the umask.
    savedUmask = process.umask(0);
  });

  afterAll(async () => {
    process.umask(savedUmask);
    await env?.close();
  });

  it('reads EXITED with its exit code on the first ContainerStatus after restart, its log complete', async () => {
    env = await createBerthEnv();
    await env.start();
    const trigger = join(env.dir, 'trigger');
    mkdirSync(trigger);
    const { podId, config } = await env.runPod('exits-while-down');
    const id = await env.create(podId, config, 'app', EXITS_ON_TRIGGER, {
      mounts: [{ container_path: '/trigger', host_path: trigger, readonly: true }],
    });
    await env.client.runtime.StartContainer({ container_id: id });
    const verbose = await env.client.runtime.ContainerStatus({ container_id: id, verbose: true });
    const pid = (JSON.parse(verbose.info.info!) as { pid: number }).pid;
    const logPath = verbose.status!.log_path;
    expect(pid).toBeGreaterThan(0);
    expect(verbose.status!.state).toBe('CONTAINER_RUNNING');
    // What berthd read before it died is what the log can hold: output still in the FIFO when the
    // shim closes it at the exit is gone for anyone (containerd too).
    await until(`${LINES} lines in ${logPath}`, () => loggedLines(logPath).length >= LINES);

    await env.daemon.kill();
    env.client.close();
    writeFileSync(join(trigger, 'go'), '');
    await until(`container process ${pid} to exit`, () => !existsSync(`/proc/${pid}`));

    await env.start();
    const first = await env.status(id);
    expect({ state: first.state, exit_code: first.exit_code, reason: first.reason }).toEqual({
      state: 'CONTAINER_EXITED',
      exit_code: 7,
      reason: 'Error',
    });
    expect(BigInt(first.finished_at)).toBeGreaterThan(BigInt(first.started_at));
    expect(loggedLines(logPath)).toEqual(Array.from({ length: LINES }, (_, i) => `line ${i + 1}`));
    // Its output ended with the process: recovery did not sit out the drain grace period.
    expect(env.daemon.stderr()).not.toContain('container output did not end after its exit');

    await env.client.runtime.RemoveContainer({ container_id: id });
  });

  it('serves the events socket shims publish to with mode 0600 under umask 0', () => {
    const st = statSync(`${env.daemon.socket}.ttrpc`);
    expect(st.isSocket()).toBe(true);
    expect((st.mode & 0o777).toString(8)).toBe('600');
  });
});
