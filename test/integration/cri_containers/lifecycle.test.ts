// The container verbs against a real berthd (real shim, runc, overlay, CNI): what kubelet and
// crictl see through the CRI, and what is left on the host afterwards.
import { status as GrpcStatus } from '@grpc/grpc-js';
import { existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainerEventResponse__Output } from '../../../internal/api/gen/runtime/v1/ContainerEventResponse';
import { callError, readStream } from '../../harness/cri_client';
import { leftoverCgroups, MAX_LOG_LINE, mountsUnder, shimPidsOf, startContainerSuite, type ContainerSuite } from './env';

jest.setTimeout(180_000);

const RECORD = /^(\S+) (stdout|stderr) ([PF]) (.*)$/;
const SLEEPER = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];

function records(path: string): string[][] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => {
      const m = l.match(RECORD);
      if (!m) throw new Error(`not a CRI log record: ${JSON.stringify(l)}`);
      return m.slice(2);
    });
}

/** Polls a file until `pattern` shows up (a guard against hanging, not a timing assertion). */
async function waitForFile(path: string, pattern: RegExp): Promise<string> {
  const giveUp = Date.now() + 30_000;
  for (;;) {
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (pattern.test(text)) return text;
    if (Date.now() > giveUp) throw new Error(`${path} never matched ${pattern}: ${JSON.stringify(text)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('CRI containers', () => {
  let s: ContainerSuite;

  beforeAll(async () => {
    s = await startContainerSuite();
  });

  afterAll(async () => {
    await s?.close();
  });

  it('creates, starts, execs, stops and removes a container, emitting each event', async () => {
    const { podId, config: pod } = await s.runPod('lifecycle');
    const events = s.client.raw.runtime.GetContainerEvents({});
    // Let the stream subscribe before the first event (it answers nothing until one arrives).
    await new Promise((r) => setTimeout(r, 200));
    const seen = readStream<ContainerEventResponse__Output>(events, 4);

    const id = await s.create(podId, pod, 'main', SLEEPER);
    const created = await s.status(id);
    expect(created).toMatchObject({ id, state: 'CONTAINER_CREATED', started_at: '0', log_path: join(pod.log_directory!, 'main/0.log') });
    expect(created.metadata).toMatchObject({ name: 'main', attempt: 0 });
    // Lists show each state change (their items are kept between calls while the state holds).
    const listedStates = async () => (await s.client.runtime.ListContainers({ filter: { pod_sandbox_id: podId } })).containers.map((c) => [c.id, c.state]);
    expect(await listedStates()).toEqual([[id, 'CONTAINER_CREATED']]);

    await s.client.runtime.StartContainer({ container_id: id });
    const running = await s.status(id);
    expect(running.state).toBe('CONTAINER_RUNNING');
    expect(BigInt(running.started_at)).toBeGreaterThan(0n);

    const hi = await s.client.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', 'echo out; echo err >&2; exit 3'], timeout: '10' });
    expect({ stdout: hi.stdout.toString(), stderr: hi.stderr.toString(), exit: hi.exit_code }).toEqual({ stdout: 'out\n', stderr: 'err\n', exit: 3 });

    // Output a child writes after the exec'd shell exited still arrives (within ExecSync's 5 s
    // grace): the shim keeps the exec's output open until berthd has read it.
    const late = await s.client.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', '(sleep 2.5; echo late) & echo early'], timeout: '10' });
    expect(late.stdout.toString()).toBe('early\nlate\n');

    // A command runc cannot start: containerd's words around the shim's message (what a probe's event shows).
    const notExecutable = await callError(s.client.runtime.ExecSync({ container_id: id, cmd: ['/etc/passwd'], timeout: '10' }));
    expect(notExecutable.code).toBe(GrpcStatus.UNKNOWN);
    expect(notExecutable.details).toMatch(
      /^failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "\/etc\/passwd": permission denied: unknown$/,
    );

    const slow = await callError(s.client.runtime.ExecSync({ container_id: id, cmd: ['sleep', '30'], timeout: '1' }));
    expect(slow.code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    expect(slow.details).toMatch(/timeout 1s exceeded/);
    // Each exec's FIFOs are gone once its call answered, the one that ran over too (the dir they
    // share stays with the container).
    expect(readdirSync(join(s.daemon.state, 'containers', id, 'exec'))).toEqual([]);

    expect(await listedStates()).toEqual([[id, 'CONTAINER_RUNNING']]);

    await s.client.runtime.StopContainer({ container_id: id, timeout: '10' });
    const exited = await s.status(id);
    expect(exited).toMatchObject({ state: 'CONTAINER_EXITED', exit_code: 0, reason: 'Completed' });
    expect(await listedStates()).toEqual([[id, 'CONTAINER_EXITED']]);
    // Stopping again is fine.
    await s.client.runtime.StopContainer({ container_id: id, timeout: '10' });

    await s.client.runtime.RemoveContainer({ container_id: id });
    expect((await callError(s.client.runtime.ContainerStatus({ container_id: id }))).code).toBe(GrpcStatus.NOT_FOUND);
    await s.client.runtime.RemoveContainer({ container_id: id }); // idempotent

    const mine = (await seen).filter((e) => e.container_id === id);
    expect(mine.map((e) => e.container_event_type)).toEqual([
      'CONTAINER_CREATED_EVENT',
      'CONTAINER_STARTED_EVENT',
      'CONTAINER_STOPPED_EVENT',
      'CONTAINER_DELETED_EVENT',
    ]);
    expect(mine[0]!.pod_sandbox_status?.id).toBe(podId);
    expect(mine[1]!.containers_statuses.find((c) => c.id === id)?.state).toBe('CONTAINER_RUNNING');
  });

  it('runs two containers in one pod sharing its network and IPC namespaces', async () => {
    const { podId, config: pod } = await s.runPod('shared');
    const server = await s.create(podId, pod, 'server', ['sh', '-c', 'echo pong > /tmp/ping; exec httpd -f -p 127.0.0.1:8080 -h /tmp']);
    const client = await s.create(podId, pod, 'client', SLEEPER);
    await s.client.runtime.StartContainer({ container_id: server });
    await s.client.runtime.StartContainer({ container_id: client });

    const ns = async (id: string, kind: string) =>
      (await s.client.runtime.ExecSync({ container_id: id, cmd: ['readlink', `/proc/self/ns/${kind}`], timeout: '10' })).stdout.toString();
    expect(await ns(client, 'net')).toMatch(/^net:\[\d+\]\n$/);
    expect(await ns(client, 'net')).toBe(await ns(server, 'net'));
    expect(await ns(client, 'ipc')).toBe(await ns(server, 'ipc'));
    expect(await ns(client, 'pid')).not.toBe(await ns(server, 'pid'));

    // The pod's /etc/hosts, hostname and resolv.conf are files of its root dir (on the root's disk,
    // as containerd keeps them), which its containers share and may write: not of the state dir's
    // tmpfs, where what a container writes there would be memory no stats count.
    await s.client.runtime.ExecSync({ container_id: client, cmd: ['sh', '-c', 'echo "10.9.9.9 added-by-client" >> /etc/hosts'], timeout: '10' });
    expect(readFileSync(join(s.daemon.root, 'sandboxes', podId, 'hosts'), 'utf8')).toContain('added-by-client');
    expect((await s.client.runtime.ExecSync({ container_id: server, cmd: ['cat', '/etc/hosts'], timeout: '10' })).stdout.toString()).toContain('added-by-client');
    for (const file of ['hosts', 'hostname', 'resolv.conf']) {
      expect(existsSync(join(s.daemon.root, 'sandboxes', podId, file))).toBe(true);
      expect(existsSync(join(s.daemon.state, 'sandboxes', podId, file))).toBe(false);
    }

    // The server listens on the pod's loopback only; the other container reaches it there.
    const giveUp = Date.now() + 30_000;
    let got = '';
    while (got !== 'pong\n' && Date.now() < giveUp) {
      got = (await s.client.runtime.ExecSync({ container_id: client, cmd: ['wget', '-qO-', 'http://127.0.0.1:8080/ping'], timeout: '10' })).stdout.toString();
    }
    expect(got).toBe('pong\n');

    const { status: podStatus } = await s.client.runtime.PodSandboxStatus({ pod_sandbox_id: podId });
    const addrs = (await s.client.runtime.ExecSync({ container_id: client, cmd: ['ip', '-4', '-o', 'addr', 'show', 'eth0'], timeout: '10' })).stdout.toString();
    expect(podStatus!.network!.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(addrs).toContain(`inet ${podStatus!.network!.ip}/`);

    const listedPod = async () => (await s.client.runtime.ListPodSandbox({ filter: { id: podId } })).items.map((p) => [p.id, p.state]);
    expect(await listedPod()).toEqual([[podId, 'SANDBOX_READY']]);
    await s.client.runtime.StopPodSandbox({ pod_sandbox_id: podId });
    expect((await s.status(server)).state).toBe('CONTAINER_EXITED');
    expect((await s.status(client)).state).toBe('CONTAINER_EXITED');
    expect(await listedPod()).toEqual([[podId, 'SANDBOX_NOTREADY']]);
    const listedContainers = (await s.client.runtime.ListContainers({ filter: { pod_sandbox_id: podId } })).containers;
    expect(listedContainers.map((c) => c.state)).toEqual(['CONTAINER_EXITED', 'CONTAINER_EXITED']);
    await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
  });

  it('records a container killed by the OOM killer as OOMKilled', async () => {
    const { podId, config: pod } = await s.runPod('oom');
    // 32 MiB limit, no swap; the shell keeps 64 MiB of text in a variable.
    const id = await s.create(podId, pod, 'hog', ['sh', '-c', 'x=$(head -c 67108864 /dev/zero | tr "\\0" a); echo done'], {
      linux: { resources: { memory_limit_in_bytes: String(32 << 20), memory_swap_limit_in_bytes: String(32 << 20) } },
    });
    await s.client.runtime.StartContainer({ container_id: id });
    const exited = await s.waitState(id, 'CONTAINER_EXITED');
    expect(exited).toMatchObject({ exit_code: 137, reason: 'OOMKilled' });
    await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
  });

  it('records exit code 7 as Error and writes the output in kubelet format, long lines as partials', async () => {
    const { podId, config: pod } = await s.runPod('exit7');
    const long = 'x'.repeat(MAX_LOG_LINE) + 'tail';
    const id = await s.create(podId, pod, 'failing', ['sh', '-c', `echo short; echo ${long}; echo oops >&2; exit 7`]);
    await s.client.runtime.StartContainer({ container_id: id });
    const exited = await s.waitState(id, 'CONTAINER_EXITED');
    expect(exited).toMatchObject({ exit_code: 7, reason: 'Error' });
    expect(BigInt(exited.finished_at)).toBeGreaterThanOrEqual(BigInt(exited.started_at));

    const lines = records(exited.log_path);
    expect(lines.filter((r) => r[0] === 'stdout')).toEqual([
      ['stdout', 'F', 'short'],
      ['stdout', 'P', 'x'.repeat(MAX_LOG_LINE)],
      ['stdout', 'F', 'tail'],
    ]);
    expect(lines.filter((r) => r[0] === 'stderr')).toEqual([['stderr', 'F', 'oops']]);

    // An exited container cannot start again, nor run execs.
    const again = await callError(s.client.runtime.StartContainer({ container_id: id }));
    expect(again.code).toBe(GrpcStatus.FAILED_PRECONDITION);
    expect(again.details).toMatch(/CONTAINER_EXITED/);
    expect((await callError(s.client.runtime.ExecSync({ container_id: id, cmd: ['true'] }))).code).toBe(GrpcStatus.FAILED_PRECONDITION);
    await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
  });

  it('enforces run_as_user and a read-only root filesystem', async () => {
    const { podId, config: pod } = await s.runPod('secure');
    const id = await s.create(podId, pod, 'locked', SLEEPER, {
      linux: { security_context: { run_as_user: { value: 1000 }, readonly_rootfs: true } },
    });
    await s.client.runtime.StartContainer({ container_id: id });
    const who = await s.client.runtime.ExecSync({ container_id: id, cmd: ['id', '-u'], timeout: '10' });
    expect(who.stdout.toString()).toBe('1000\n');
    const write = await s.client.runtime.ExecSync({ container_id: id, cmd: ['touch', '/newfile'], timeout: '10' });
    expect(write.exit_code).not.toBe(0);
    expect(write.stderr.toString()).toMatch(/Read-only file system/);
    await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
  });

  it('refuses a second container with the same name in the pod, naming both', async () => {
    const { podId, config: pod } = await s.runPod('names');
    const first = await s.create(podId, pod, 'twin', SLEEPER);
    const err = await callError(s.create(podId, pod, 'twin', SLEEPER));
    expect(err.code).toBe(GrpcStatus.ALREADY_EXISTS);
    expect(err.details).toContain('twin_names_berth-test');
    expect(err.details).toContain(first);
    // Once the first is removed, the name is free again.
    await s.client.runtime.RemoveContainer({ container_id: first });
    const second = await s.create(podId, pod, 'twin', SLEEPER);
    expect(second).not.toBe(first);
    await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
  });

  it('answers NotFound for a missing image or pod, and a failed create leaves its name free', async () => {
    const { podId, config: pod } = await s.runPod('missing');
    const noImage = await callError(s.create(podId, pod, 'ghost', SLEEPER, { image: { image: 'berth.test/absent:1' } }));
    expect(noImage.code).toBe(GrpcStatus.NOT_FOUND);
    expect(noImage.details).toContain('berth.test/absent:1');
    const noPod = await callError(s.create('f'.repeat(64), pod, 'ghost', SLEEPER));
    expect(noPod.code).toBe(GrpcStatus.NOT_FOUND);
    const id = await s.create(podId, pod, 'ghost', SLEEPER);
    expect((await s.client.runtime.ListContainers({ filter: { pod_sandbox_id: podId } })).containers.map((c) => c.id)).toEqual([id]);
    expect(readdirSync(join(s.daemon.root, 'containers'))).toContain(id);
    await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
  });

  it("lists pods and containers by the kubelet's filters: label pairs, a whole or partial pod ID, state", async () => {
    const uid = (name: string) => `uid-${name}-${process.pid}`;
    const one = await s.runPod('filter-one', { labels: { 'io.kubernetes.pod.uid': uid('one'), tier: 'web' } });
    const two = await s.runPod('filter-two', { labels: { 'io.kubernetes.pod.uid': uid('two'), tier: 'web' } });
    const inPod = (pod: typeof one, name: string) =>
      s.create(pod.podId, pod.config, name, SLEEPER, { labels: { 'io.kubernetes.pod.uid': pod.config.labels!['io.kubernetes.pod.uid']!, name } });
    const a = await inPod(one, 'a');
    const b = await inPod(one, 'b');
    const c = await inPod(two, 'c');
    await s.client.runtime.StartContainer({ container_id: b });
    const pods = async (filter: object) => (await s.client.runtime.ListPodSandbox({ filter })).items.map((p) => p.id).sort();
    const containers = async (filter: object) => (await s.client.runtime.ListContainers({ filter })).containers.map((x) => x.id).sort();
    expect(await pods({ label_selector: { 'io.kubernetes.pod.uid': uid('one') } })).toEqual([one.podId]);
    expect(await pods({ label_selector: { tier: 'web' } })).toEqual([one.podId, two.podId].sort());
    expect(await pods({ label_selector: { tier: 'web', 'io.kubernetes.pod.uid': uid('two') } })).toEqual([two.podId]);
    expect(await pods({ label_selector: { tier: 'db' } })).toEqual([]);
    expect(await containers({ label_selector: { 'io.kubernetes.pod.uid': uid('one') } })).toEqual([a, b].sort());
    expect(await containers({ label_selector: { 'io.kubernetes.pod.uid': uid('one'), name: 'b' } })).toEqual([b]);
    expect(await containers({ pod_sandbox_id: two.podId })).toEqual([c]);
    expect(await containers({ pod_sandbox_id: one.podId.slice(0, 12) })).toEqual([a, b].sort());
    expect(await containers({ pod_sandbox_id: one.podId, state: { state: 'CONTAINER_RUNNING' } })).toEqual([b]);
    expect(await containers({ pod_sandbox_id: one.podId, label_selector: { name: 'c' } })).toEqual([]);
    // IDs as containerd normalizes them: a unique prefix is its record's ID, an ambiguous one matches
    // nothing (by pigeonhole, 17 containers hold two whose IDs share their first digit).
    expect(await containers({ id: a.slice(0, 12) })).toEqual([a]);
    expect(await pods({ id: two.podId.slice(0, 12) })).toEqual([two.podId]);
    const made = [a, b, c];
    const sharedDigit = () => made.map((id) => id[0]).find((d, i, all) => all.indexOf(d) !== i);
    while (sharedDigit() === undefined) made.push(await inPod(two, `spare-${made.length}`));
    const ambiguous = sharedDigit()!;
    expect(await containers({ id: ambiguous })).toEqual([]);
    expect(await containers({ id: ambiguous, pod_sandbox_id: two.podId })).toEqual([]);
    // A removed pod's containers are gone from every index.
    await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: one.podId });
    expect(await containers({ label_selector: { 'io.kubernetes.pod.uid': uid('one') } })).toEqual([]);
    expect(await containers({ pod_sandbox_id: one.podId })).toEqual([]);
    expect(await pods({ label_selector: { tier: 'web' } })).toEqual([two.podId]);
    await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: two.podId });
  });

  it('kills a container that ignores its stop signal once the timeout passes', async () => {
    const { podId, config: pod } = await s.runPod('stubborn');
    // PID 1 of a PID namespace ignores SIGTERM unless it installed a handler: sleep does not.
    const id = await s.create(podId, pod, 'deaf', ['sleep', '3600']);
    await s.client.runtime.StartContainer({ container_id: id });
    await s.client.runtime.StopContainer({ container_id: id, timeout: '1' });
    expect(await s.status(id)).toMatchObject({ state: 'CONTAINER_EXITED', exit_code: 137, reason: 'Error' });
    await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
  });

  it('updates a running container memory limit in its cgroup and reopens its log after rotation', async () => {
    const { podId, config: pod } = await s.runPod('tuned');
    const id = await s.create(podId, pod, 'tuned', SLEEPER, { linux: { resources: { memory_limit_in_bytes: 64 << 20 } } });
    await s.client.runtime.StartContainer({ container_id: id });
    const limitFile = join('/sys/fs/cgroup/memory', s.cgroupParent, id, 'memory.limit_in_bytes');
    expect(readFileSync(limitFile, 'utf8').trim()).toBe(String(64 << 20));
    await s.client.runtime.UpdateContainerResources({ container_id: id, linux: { memory_limit_in_bytes: 96 << 20 } });
    expect(readFileSync(limitFile, 'utf8').trim()).toBe(String(96 << 20));

    const logPath = (await s.status(id)).log_path;
    const say = (text: string) => s.client.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', `echo ${text} > /proc/1/fd/1`], timeout: '10' });
    await say('before');
    await waitForFile(logPath, /stdout F before\n/);
    renameSync(logPath, `${logPath}.1`);
    await s.client.runtime.ReopenContainerLog({ container_id: id });
    await say('after');
    expect(await waitForFile(logPath, /stdout F after\n/)).not.toContain('before');

    await s.client.runtime.StopContainer({ container_id: id, timeout: '10' });
    expect((await callError(s.client.runtime.ReopenContainerLog({ container_id: id }))).code).toBe(GrpcStatus.FAILED_PRECONDITION);
    await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
  });

  it('starts a created container with the limits UpdateContainerResources gave it', async () => {
    const { podId, config: pod } = await s.runPod('pretuned');
    const id = await s.create(podId, pod, 'pretuned', SLEEPER, { linux: { resources: { memory_limit_in_bytes: 64 << 20 } } });
    await s.client.runtime.UpdateContainerResources({ container_id: id, linux: { memory_limit_in_bytes: 80 << 20 } });
    await s.client.runtime.StartContainer({ container_id: id });
    const limitFile = join('/sys/fs/cgroup/memory', s.cgroupParent, id, 'memory.limit_in_bytes');
    expect(readFileSync(limitFile, 'utf8').trim()).toBe(String(80 << 20));
    await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
  });

  it('marks a container whose start failed as exited with StartError, leaving no task behind', async () => {
    const { podId, config: pod } = await s.runPod('broken');
    const id = await s.create(podId, pod, 'broken', ['/no/such/binary']);
    const err = await callError(s.client.runtime.StartContainer({ container_id: id }));
    expect(err.details).toContain(id);
    const st = await s.status(id);
    expect(st).toMatchObject({ state: 'CONTAINER_EXITED', exit_code: 128, reason: 'StartError' });
    expect(st.message).toMatch(/no\/such\/binary/);
    // The pod's other work is unaffected: a good container still starts in it.
    const ok = await s.create(podId, pod, 'fine', SLEEPER);
    await s.client.runtime.StartContainer({ container_id: ok });
    expect((await s.status(ok)).state).toBe('CONTAINER_RUNNING');
    await s.client.runtime.RemoveContainer({ container_id: id });
    expect(existsSync(join(s.daemon.state, 'containers', id))).toBe(false);
    await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
  });

  it('leaves the host clean once everything is removed', async () => {
    // Whatever an earlier failed test left is removed the way kubelet would, then the host is checked.
    for (const leftover of (await s.client.runtime.ListPodSandbox({})).items) {
      await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: leftover.id });
    }
    const { podId, config: pod } = await s.runPod('last');
    const id = await s.create(podId, pod, 'last', SLEEPER);
    await s.client.runtime.StartContainer({ container_id: id });
    // RemoveContainer on a running container kills it first.
    await s.client.runtime.RemoveContainer({ container_id: id });
    await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });

    expect((await s.client.runtime.ListContainers({})).containers).toEqual([]);
    expect((await s.client.runtime.ListPodSandbox({})).items).toEqual([]);
    for (const dir of [join(s.daemon.root, 'containers'), join(s.daemon.state, 'containers')]) {
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
    }
    expect(mountsUnder(s.daemon.dir)).toEqual([]);
    expect(shimPidsOf(s.daemon.socket)).toEqual([]);
    expect(leftoverCgroups(s.cgroupParent)).toEqual([]);
    expect(s.cni.allocatedIPs()).toEqual([]);
  });
});
