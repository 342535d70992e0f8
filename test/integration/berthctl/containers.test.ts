// berthctl's pod and container verbs through a real berthd running real pods (runc, shim, CNI):
// pods, ps, inspect, inspectp, logs (all, --tail, -t, -f until the container exits), stop, rm,
// stopp, rmp with crictl's outputs and refusals, du per container, and gc of the layer snapshots
// an image removed while a container sat on them leaves behind.
import { readFileSync } from 'node:fs';
import type { PodSandboxConfig } from '../../../internal/api/gen/runtime/v1/PodSandboxConfig';
import { createBerthEnv, type BerthEnv } from '../recovery/berth_env';
import { until } from '../recovery/probes';
import { LAYERS3_IMAGE, testImages } from '../../harness/images';
import { committedSnapshots } from '../cri_images/env';
import { cli, tableRows } from './env';

jest.setTimeout(300_000);

const PRINTER = ['sh', '-c', 'for i in 1 2 3 4 5; do echo line $i; done; echo oops >&2; trap "exit 0" TERM; sleep 3600 & wait'];
const SLEEPER = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];

describe('berthctl pods and containers', () => {
  let env: BerthEnv;
  let podId: string;
  let podName: string;
  let podConfig: PodSandboxConfig;
  let printer: string;
  const run = (...args: string[]) => cli(env.daemon.socket, ...args);

  /** Waits (a guard against hanging, not a timing assertion) until the container's log holds `text`. */
  const logHolds = async (id: string, text: string) => {
    const path = (await env.status(id)).log_path;
    const giveUp = Date.now() + 60_000;
    while (!readFileSync(path, 'utf8').includes(text)) {
      if (Date.now() > giveUp) throw new Error(`log of ${id} never held ${text}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
    const pod = await env.runPod('cli-pod');
    podId = pod.podId;
    podConfig = pod.config;
    podName = pod.config.metadata!.name!;
    printer = await env.create(podId, podConfig, 'printer', PRINTER);
    await env.client.runtime.StartContainer({ container_id: printer });
    await env.waitState(printer, 'CONTAINER_RUNNING');
    await logHolds(printer, 'oops');
  });

  afterAll(async () => {
    await env?.close();
  });

  it('pods lists the pod as crictl does; -q, -o json, --name and --state filter', async () => {
    const pods = await run('pods');
    expect(pods.code).toBe(0);
    const rows = tableRows(pods.stdout);
    expect(rows[0]).toEqual(['POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT', 'RUNTIME']);
    expect(rows.slice(1)).toEqual([[podId.slice(0, 13), expect.stringMatching(/ago$/), 'Ready', podName, 'berth-test', '0', '(default)']]);
    expect(await run('pods', '-q')).toEqual({ code: 0, stdout: `${podId}\n`, stderr: '' });
    const json = JSON.parse((await run('pods', '-o', 'json')).stdout) as { items: Array<{ id: string; metadata: { name: string }; state: string }> };
    expect(json.items).toEqual([expect.objectContaining({ id: podId, metadata: expect.objectContaining({ name: podName }), state: 'SANDBOX_READY' })]);
    expect((await run('pods', '-q', '--name', '^nomatch$')).stdout).toBe('');
    expect((await run('pods', '-q', '--state', 'notready')).stdout).toBe('');
    expect(await run('pods', '--state', 'sleepy')).toMatchObject({ code: 2, stderr: expect.stringContaining('--state should be ready or notready') });
  });

  it('ps shows running containers, ps -a created ones too', async () => {
    const created = await env.create(podId, podConfig, 'idle', SLEEPER);
    const ps = tableRows((await run('ps')).stdout);
    expect(ps[0]).toEqual(['CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD']);
    expect(ps.slice(1).map((r) => [r[0], r[3], r[4], r[6]])).toEqual([[printer.slice(0, 13), 'Running', 'printer', podId.slice(0, 13)]]);
    const all = await run('ps', '-a', '-q');
    expect(all.stdout.trim().split('\n').sort()).toEqual([created, printer].sort());
    expect((await run('ps', '-q', '--state', 'created')).stdout).toBe(`${created}\n`);
    expect((await run('ps', '-q', '--pod', podId, '--name', 'print')).stdout).toBe(`${printer}\n`);
    expect(await run('rm', created)).toEqual({ code: 0, stdout: `${created}\n`, stderr: '' });
  });

  it('inspect and inspectp print {status, info} with crictl\'s field names and times', async () => {
    const inspect = JSON.parse((await run('inspect', printer.slice(0, 12))).stdout) as {
      status: { id: string; state: string; logPath: string; createdAt: string; finishedAt: string; metadata: { name: string } };
      info: unknown;
    };
    expect(inspect.status).toMatchObject({ id: printer, state: 'CONTAINER_RUNNING', metadata: { name: 'printer' }, finishedAt: '0001-01-01T00:00:00Z' });
    expect(inspect.status.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(inspect.status.logPath).toMatch(/printer\/0\.log$/);
    expect(inspect.info).toBeDefined();
    const table = await run('inspect', '-o', 'table', '-q', printer);
    expect(table.stdout).toMatch(new RegExp(`^ID: ${printer}\nName: printer\nState: CONTAINER_RUNNING\nCreated: .* ago\nStarted: .* ago\n`));

    const inspectp = JSON.parse((await run('inspectp', podId)).stdout) as { status: { id: string; state: string; network: { ip: string } } };
    expect(inspectp.status).toMatchObject({ id: podId, state: 'SANDBOX_READY', network: { ip: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/) } });
    expect(await run('inspect', 'f00dfeed')).toMatchObject({ code: 1, stderr: expect.stringMatching(/^berthctl: inspect: .*\(NOT_FOUND\)\n$/) });
  });

  it('logs prints stdout and stderr to their own streams; --tail and -t as crictl', async () => {
    expect(await run('logs', printer)).toEqual({ code: 0, stdout: 'line 1\nline 2\nline 3\nline 4\nline 5\n', stderr: 'oops\n' });
    // Which of stdout and stderr reached the file first is the container's business: read the
    // file's last two entries, then ask berthctl for them.
    const entries = readFileSync((await env.status(printer)).log_path, 'utf8').trimEnd().split('\n').slice(-2).map((l) => l.split(' '));
    const expected = { stdout: '', stderr: '' };
    for (const [, stream, , ...words] of entries) expected[stream as 'stdout' | 'stderr'] += `${words.join(' ')}\n`;
    expect(await run('logs', '--tail', '2', printer)).toEqual({ code: 0, ...expected });
    expect(await run('logs', '--tail', '0', printer)).toEqual({ code: 0, stdout: '', stderr: '' });
    const [time, stream, , ...words] = entries[1]!;
    const stamped = await run('logs', '-t', '--tail', '1', printer);
    expect(stamped[stream as 'stdout' | 'stderr']).toBe(`${time} ${words.join(' ')}\n`);
    expect(await run('logs', '--tail', 'x', printer)).toMatchObject({ code: 2 });
  });

  it('logs -f follows until the container exits', async () => {
    const waiter = await env.create(podId, podConfig, 'waiter', [
      'sh', '-c', 'echo first; while [ ! -e /tmp/go ]; do sleep 0.1; done; echo second',
    ]);
    await env.client.runtime.StartContainer({ container_id: waiter });
    await logHolds(waiter, 'first');
    const following = run('logs', '-f', waiter);
    // The follower is running at the end of the log; the container prints more and exits.
    await env.client.runtime.ExecSync({ container_id: waiter, cmd: ['touch', '/tmp/go'], timeout: '30' });
    expect(await following).toEqual({ code: 0, stdout: 'first\nsecond\n', stderr: '' });
    expect((await env.status(waiter)).state).toBe('CONTAINER_EXITED');
    expect((await run('rm', waiter)).code).toBe(0);
  });

  it('du shows each container\'s writable layer and log', async () => {
    const json = JSON.parse((await run('du', '-o', 'json')).stdout) as {
      writableLayers: { count: string };
      logs: { count: string; bytes: string };
      containers: Array<{ id: string; name: string; podSandboxId: string; writableLayerBytes: string; logBytes: string }>;
    };
    expect(json.containers).toEqual([expect.objectContaining({ id: printer, name: 'printer', podSandboxId: podId })]);
    expect(Number(json.containers[0]!.logBytes)).toBeGreaterThan(0);
    expect(json.logs.count).toBe('1');
    expect(Number(json.writableLayers.count)).toBeGreaterThanOrEqual(2); // the container's and the pod's
    const table = await run('du', '-v');
    expect(tableRows(table.stdout)).toContainEqual(['CONTAINER', 'NAME', 'POD ID', 'WRITABLE', 'LOGS']);
  });

  it('stop, then rm; rm refuses a running container unless -f', async () => {
    const busy = await env.create(podId, podConfig, 'busy', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: busy });
    const refused = await run('rm', busy);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: `berthctl: rm: container "${busy}" is running, please stop it first\n` });
    expect(await run('rm', '-f', busy)).toEqual({ code: 0, stdout: `${busy}\n`, stderr: '' });

    expect(await run('stop', '-t', '10', printer)).toEqual({ code: 0, stdout: `${printer}\n`, stderr: '' });
    expect((await env.status(printer)).state).toBe('CONTAINER_EXITED');
    expect(tableRows((await run('ps')).stdout)).toHaveLength(1); // the header only
    expect(await run('rm', printer)).toEqual({ code: 0, stdout: `${printer}\n`, stderr: '' });
  });

  it('the layers of an image removed while a container used it go with the container; gc then finds nothing', async () => {
    const paths = await testImages();
    const baseline = committedSnapshots(env.daemon.root);
    expect((await run('images', 'import', paths.layers3Oci)).code).toBe(0);
    const user = await env.create(
      podId,
      podConfig,
      'layers3-user',
      ['true'],
      { image: { image: LAYERS3_IMAGE } },
    );
    const before = committedSnapshots(env.daemon.root);
    expect(before.length).toBeGreaterThan(baseline.length);
    // RemoveImage keeps the chain: the container's snapshot sits on it.
    expect((await run('rmi', LAYERS3_IMAGE)).code).toBe(0);
    expect(committedSnapshots(env.daemon.root)).toEqual(before);
    expect((await run('rm', user)).code).toBe(0);
    // As containerd's GC after the container's snapshot is removed.
    await until('the removed image\'s layers collected', () => committedSnapshots(env.daemon.root).length === baseline.length);
    expect(committedSnapshots(env.daemon.root).sort()).toEqual([...baseline].sort());
    expect(JSON.parse((await run('gc', '-o', 'json')).stdout)).toEqual({ removedBlobs: [], removedSnapshots: [], reclaimedBytes: '0' });
  });

  it('rmp refuses a ready pod; stopp then rmp removes it', async () => {
    expect(await run('rmp', podId)).toEqual({ code: 1, stdout: '', stderr: `berthctl: rmp: pod sandbox "${podId}" is running, please stop it first\n` });
    expect(await run('stopp', podId)).toEqual({ code: 0, stdout: `Stopped sandbox ${podId}\n`, stderr: '' });
    expect(tableRows((await run('pods')).stdout)[1]?.[2]).toBe('NotReady');
    expect(await run('rmp', podId)).toEqual({ code: 0, stdout: `Removed sandbox ${podId}\n`, stderr: '' });
    expect((await run('pods', '-q')).stdout).toBe('');
  });
});
