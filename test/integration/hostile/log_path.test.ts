// What sits at a container's log path is not berthd's to trust: the pod log directory is writable by
// whoever can mount it (a hostPath pod). A FIFO there blocked the open (no reader) or every write
// (a reader that never reads) on berthd's one thread, so every CRI call hung; a symlink there had
// berthd append the container's output, as root, to whatever file it names, and one planted for a
// directory on the way had it create files anywhere. All are refused.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { callError } from '../../harness/cri_client';
import { createBerthEnv, deadline, TICKER, type BerthEnv } from '../recovery/berth_env';
import { leaks } from '../recovery/host_state';

jest.setTimeout(180_000);

describe('a hostile container log path', () => {
  let env: BerthEnv;
  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
  });
  afterAll(async () => {
    await env?.close();
  });

  /** Version answers within its deadline: berthd's thread is not blocked. */
  const serving = async () => expect((await env.client.runtime.Version({}, deadline(5_000))).runtime_name).toBe('berth');

  it('a FIFO at the log path: StartContainer is refused naming it, and berthd keeps serving', async () => {
    const { podId, config } = await env.runPod('fifo-log');
    const id = await env.create(podId, config, 'c', TICKER);
    const logPath = join(env.scratch, 'fifo-log', 'c', '0.log');
    mkdirSync(join(env.scratch, 'fifo-log', 'c'), { recursive: true });
    execFileSync('mkfifo', [logPath]);
    const err = await callError(env.client.runtime.StartContainer({ container_id: id }, deadline(10_000)));
    expect(err.code).toBe(GrpcStatus.FAILED_PRECONDITION);
    expect(err.details).toContain(`container log ${logPath} is not a regular file`);
    await serving();
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });

  it('a symlink at the log path: StartContainer is refused and the file it names is untouched', async () => {
    const { podId, config } = await env.runPod('link-log');
    const id = await env.create(podId, config, 'c', TICKER);
    const target = join(env.dir, 'precious');
    writeFileSync(target, 'precious\n');
    mkdirSync(join(env.scratch, 'link-log', 'c'), { recursive: true });
    symlinkSync(target, join(env.scratch, 'link-log', 'c', '0.log'));
    const err = await callError(env.client.runtime.StartContainer({ container_id: id }, deadline(10_000)));
    expect(err.code).toBe(GrpcStatus.FAILED_PRECONDITION);
    expect(err.details).toMatch(/is not a regular file \(a symlink\)/);
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
  });

  it('a FIFO planted where ReopenContainerLog reopens: refused, output goes on once a file can be made, berthd serving', async () => {
    const { podId, config } = await env.runPod('fifo-reopen');
    const id = await env.create(podId, config, 'c', TICKER);
    await env.client.runtime.StartContainer({ container_id: id }, deadline());
    const logPath = join(env.scratch, 'fifo-reopen', 'c', '0.log');
    renameSync(logPath, `${logPath}.1`); // kubelet's rotation
    execFileSync('mkfifo', [logPath]);
    const err = await callError(env.client.runtime.ReopenContainerLog({ container_id: id }, deadline(10_000)));
    expect(err.details).toContain(`container log ${logPath} is not a regular file`);
    await serving();
    rmSync(logPath);
    await env.client.runtime.ReopenContainerLog({ container_id: id }, deadline());
    expect(existsSync(logPath)).toBe(true);
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });

  it("a symlink planted for the container's log directory: reopen and a restart's reattach write nothing through it", async () => {
    const { podId, config } = await env.runPod('dirlink-log');
    const id = await env.create(podId, config, 'c', TICKER);
    await env.client.runtime.StartContainer({ container_id: id }, deadline());
    const podLogDir = join(env.scratch, 'dirlink-log');
    const victim = join(env.dir, 'victim-etc');
    mkdirSync(victim);
    renameSync(join(podLogDir, 'c'), join(podLogDir, 'c.rotated'));
    symlinkSync(victim, join(podLogDir, 'c'));
    const err = await callError(env.client.runtime.ReopenContainerLog({ container_id: id }, deadline(10_000)));
    expect(err.code).toBe(GrpcStatus.FAILED_PRECONDITION);
    expect(err.details).toContain('"c" is not a directory (a symlink or another file)');
    // A restart reattaches the running container's output to its log path: the same refusal.
    await env.stop();
    await env.start();
    await env.client.runtime.ListContainers({}, deadline());
    await serving();
    expect(readdirSync(victim)).toEqual([]);
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(readdirSync(victim)).toEqual([]);
    expect(leaks(env.host())).toEqual([]);
  });
});
