// Security properties a node admin can check from outside: the socket is root's alone, berthd
// listens on no TCP port but the streaming server on loopback (from the first stream asked for), a
// container's log cannot be aimed out of its pod's log directory, and a container gets host paths
// only when it asks for them.
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { callError } from '../../harness/cri_client';
import { tcpListeners } from '../../harness/tcp_listeners';
import { createBerthEnv, SLEEPER, type BerthEnv } from '../recovery/berth_env';

jest.setTimeout(120_000);

interface SpecMount {
  destination: string;
  type?: string;
  source?: string;
  options?: string[];
}

describe('berthd security', () => {
  let env: BerthEnv;

  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
  });

  afterAll(async () => {
    await env?.close();
  });

  it('serves on a socket only root can use', () => {
    const st = statSync(env.daemon.socket);
    expect(st.isSocket()).toBe(true);
    expect({ mode: (st.mode & 0o777).toString(8), uid: st.uid, gid: st.gid }).toEqual({ mode: '600', uid: 0, gid: 0 });
  });

  it('listens on no TCP port until a stream is asked for, then only the streaming server on 127.0.0.1', async () => {
    expect(tcpListeners(env.daemon.pid)).toEqual([]);
    const { podId } = await env.runPod('listeners');
    const { url } = await env.client.runtime.PortForward({ pod_sandbox_id: podId, port: [80] });
    expect(tcpListeners(env.daemon.pid)).toEqual([{ address: '127.0.0.1', port: Number(new URL(url).port) }]);
  });

  it('keeps a container log inside its pod log directory', async () => {
    const { podId, config: pod } = await env.runPod('logs');
    const escape = await callError(env.create(podId, pod, 'escape', SLEEPER, { log_path: '../../../../etc/cron.d/evil' }));
    expect(escape.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(escape.details).toContain('log_path');
    // An absolute log_path is joined under the pod's log directory, as containerd does.
    const id = await env.create(podId, pod, 'abs', SLEEPER, { log_path: '/etc/evil.log' });
    expect((await env.status(id)).log_path).toBe(join(pod.log_directory!, 'etc/evil.log'));
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
  });

  it('mounts no host path into a container unless requested', async () => {
    const { podId, config: pod } = await env.runPod('mounts');
    const shared = join(env.dir, 'shared-data');
    mkdirSync(shared);
    const plain = await env.create(podId, pod, 'plain', SLEEPER);
    const withMount = await env.create(podId, pod, 'withmount', SLEEPER, { mounts: [{ container_path: '/data', host_path: shared, readonly: true }] });
    for (const id of [plain, withMount]) await env.client.runtime.StartContainer({ container_id: id });

    // The pod's files: hostname, hosts and resolv.conf in its root dir, shm in its state dir.
    const podDirs = [join(env.daemon.root, 'sandboxes', podId), join(env.daemon.state, 'sandboxes', podId)];
    const binds = (id: string) => {
      const spec = JSON.parse(readFileSync(join(env.daemon.state, 'io.containerd.runtime.v2.task', 'k8s.io', id, 'config.json'), 'utf8')) as { mounts: SpecMount[] };
      return spec.mounts
        .filter((m) => m.type === 'bind' || (m.options ?? []).some((o) => o === 'bind' || o === 'rbind'))
        .map((m) => ({ destination: m.destination, source: podDirs.some((dir) => m.source!.startsWith(`${dir}/`)) ? '<pod files>' : m.source }));
    };
    // Only the pod's own files (hostname, hosts, resolv.conf, shm) are bound by default...
    expect(binds(plain).filter((b) => b.source !== '<pod files>')).toEqual([]);
    // ...and the requested host path is the only addition.
    expect(binds(withMount).filter((b) => b.source !== '<pod files>')).toEqual([{ destination: '/data', source: shared }]);
    expect((await env.status(plain)).mounts).toEqual([]);
    expect((await env.status(withMount)).mounts.map((m) => [m.container_path, m.host_path, m.readonly])).toEqual([['/data', shared, true]]);

    // What the container itself sees: /data is there only where requested.
    const seen = async (id: string) =>
      (await env.client.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', 'grep -c " /data " /proc/self/mountinfo || true'], timeout: '10' })).stdout.toString().trim();
    expect([await seen(plain), await seen(withMount)]).toEqual(['0', '1']);
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
  });
});
