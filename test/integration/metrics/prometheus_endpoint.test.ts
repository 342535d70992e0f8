// berthd's Prometheus endpoint ([metrics] address), scraped and parsed as Prometheus would: RPCs by
// service, method, type and code (both CRI packages, errors, unimplemented streams); pods,
// containers and shims by state; exits by reason, OOMKilled included; CNI setup and teardown;
// exec sessions; the process metrics; and no TCP listener but the streaming server and /metrics.
import { status as GrpcStatus } from '@grpc/grpc-js';
import { callError, criClientV1alpha2 } from '../../harness/cri_client';
import { freePort } from '../../harness/registry';
import { streamExec } from '../../harness/streaming_client';
import { createBerthEnv, SLEEPER, type BerthEnv } from '../recovery/berth_env';
import { listeningTcpPorts } from '../../harness/tcp_listeners';
import { find, httpGet, metricsAddress, scrape, value, type Exposition } from './exposition';

jest.setTimeout(240_000);

const V1 = 'runtime.v1.RuntimeService';

const rpc = (service: string, method: string, type = 'unary') => ({ grpc_type: type, grpc_service: service, grpc_method: method });

/** How much the series `name{labels}` grew from `before` to `after`. */
const grew = (before: Exposition, after: Exposition, name: string, labels: Record<string, string>) =>
  value(after, name, labels) - value(before, name, labels);

/** Scrapes until `done` holds (a guard against hanging, not a timing assertion). */
async function scrapeUntil(address: string, what: string, done: (e: Exposition) => boolean): Promise<Exposition> {
  const giveUp = Date.now() + 30_000;
  for (;;) {
    const e = await scrape(address);
    if (done(e)) return e;
    if (Date.now() > giveUp) throw new Error(`${what}: never seen on /metrics`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the Prometheus endpoint', () => {
  let env: BerthEnv;
  let streamPort: number;
  let address: string;

  beforeAll(async () => {
    streamPort = await freePort();
    env = await createBerthEnv({
      criToml: `stream_server_port = "${streamPort}"`,
      extraToml: () => '[metrics]\naddress = "127.0.0.1:0"\n',
    });
    await env.start();
    address = metricsAddress(env.daemon.stderr());
  });

  afterAll(async () => {
    await env?.close();
  });

  it('listens on the configured address only, next to the streaming server, and serves /metrics alone', async () => {
    const metricsPort = Number(address.split(':')[1]);
    expect(address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(listeningTcpPorts(env.daemon.pid)).toEqual([streamPort, metricsPort].sort((a, b) => a - b));

    const res = await httpGet(`http://${address}/metrics`);
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect((await httpGet(`http://${address}/`)).status).toBe(404);
  });

  it('counts every RPC by service, method, type and gRPC code, with its latency', async () => {
    const before = await scrape(address);
    for (let i = 0; i < 3; i++) await env.client.runtime.Version({});
    const alpha = criClientV1alpha2(env.daemon.socket);
    try {
      await alpha.runtime.Version({});
    } finally {
      alpha.close();
    }
    expect((await callError(env.client.runtime.ContainerStatus({ container_id: 'no-such-container' }))).code).toBe(GrpcStatus.NOT_FOUND);
    expect((await callError(env.client.runtime.StreamPodSandboxMetrics({}))).code).toBe(GrpcStatus.UNIMPLEMENTED);
    const after = await scrape(address);

    expect(after.types.get('grpc_server_handled_total')).toBe('counter');
    expect(after.types.get('grpc_server_handling_seconds')).toBe('histogram');
    expect(grew(before, after, 'grpc_server_started_total', rpc(V1, 'Version'))).toBe(3);
    expect(grew(before, after, 'grpc_server_handled_total', { ...rpc(V1, 'Version'), grpc_code: 'OK' })).toBe(3);
    expect(grew(before, after, 'grpc_server_handling_seconds_count', rpc(V1, 'Version'))).toBe(3);
    expect(value(after, 'grpc_server_handling_seconds_bucket', { ...rpc(V1, 'Version'), le: '+Inf' })).toBe(
      value(after, 'grpc_server_handling_seconds_count', rpc(V1, 'Version')),
    );
    // The same handler behind runtime.v1alpha2 is labelled with that package's service name.
    expect(grew(before, after, 'grpc_server_handled_total', { ...rpc('runtime.v1alpha2.RuntimeService', 'Version'), grpc_code: 'OK' })).toBe(1);
    expect(grew(before, after, 'grpc_server_handled_total', { ...rpc(V1, 'ContainerStatus'), grpc_code: 'NotFound' })).toBe(1);
    expect(
      grew(before, after, 'grpc_server_handled_total', { ...rpc(V1, 'StreamPodSandboxMetrics', 'server_stream'), grpc_code: 'Unimplemented' }),
    ).toBe(1);
  });

  it('counts a server stream the client cancels as Canceled', async () => {
    const events = rpc(V1, 'GetContainerEvents', 'server_stream');
    const before = await scrape(address);
    const stream = env.client.raw.runtime.GetContainerEvents({});
    stream.on('error', () => undefined); // the client's own CANCELLED
    await scrapeUntil(address, 'the events stream started', (e) => grew(before, e, 'grpc_server_started_total', events) === 1);
    stream.cancel();
    const after = await scrapeUntil(address, 'the events stream ended', (e) => grew(before, e, 'grpc_server_handling_seconds_count', events) === 1);
    expect(grew(before, after, 'grpc_server_handled_total', { ...events, grpc_code: 'Canceled' })).toBe(1);
  });

  it('shows pods, containers and shims by state, CNI times, exec sessions and exits by reason (OOMKilled too)', async () => {
    const before = await scrape(address);
    const { podId, config: pod } = await env.runPod('gauges');
    const sleeper = await env.create(podId, pod, 'sleeper', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: sleeper });
    const failing = await env.create(podId, pod, 'failing', ['sh', '-c', 'exit 3']);
    await env.client.runtime.StartContainer({ container_id: failing });
    await env.waitState(failing, 'CONTAINER_EXITED');
    // 32 MiB limit, no swap; the shell keeps 64 MiB of text in a variable.
    const hog = await env.create(podId, pod, 'hog', ['sh', '-c', 'x=$(head -c 67108864 /dev/zero | tr "\\0" a); echo done'], {
      linux: { resources: { memory_limit_in_bytes: String(32 << 20), memory_swap_limit_in_bytes: String(32 << 20) } },
    });
    await env.client.runtime.StartContainer({ container_id: hog });
    expect(await env.waitState(hog, 'CONTAINER_EXITED')).toMatchObject({ reason: 'OOMKilled' });
    await env.create(podId, pod, 'never-started', SLEEPER);

    const { url } = await env.client.runtime.Exec({ container_id: sleeper, cmd: ['echo', 'hi'], stdout: true, stderr: true });
    expect((await streamExec(url, { transport: 'spdy', stdout: true, stderr: true })).stdout).toBe('hi\n');

    const running = await scrape(address);
    expect(value(running, 'berth_pod_sandboxes', { state: 'SANDBOX_READY' })).toBe(1);
    expect(value(running, 'berth_pod_sandboxes', { state: 'SANDBOX_NOTREADY' })).toBe(0);
    expect(value(running, 'berth_containers', { state: 'CONTAINER_RUNNING' })).toBe(1);
    expect(value(running, 'berth_containers', { state: 'CONTAINER_EXITED' })).toBe(2);
    expect(value(running, 'berth_containers', { state: 'CONTAINER_CREATED' })).toBe(1);
    expect(value(running, 'berth_shims_running')).toBe(1);
    expect(grew(before, running, 'berth_container_exits_total', { reason: 'Error' })).toBe(1);
    expect(grew(before, running, 'berth_container_exits_total', { reason: 'OOMKilled' })).toBe(1);
    expect(grew(before, running, 'berth_cni_operation_duration_seconds_count', { operation: 'setup', result: 'success' })).toBe(1);
    expect(grew(before, running, 'berth_streaming_sessions_total', { kind: 'exec' })).toBe(1);
    // The session was over before the scrape: ExecSync-like clients leave nothing open.
    expect(value(running, 'berth_streaming_sessions_active', { kind: 'exec' })).toBe(0);

    // The sleeper ends on SIGTERM with 0; then the pod goes.
    await env.client.runtime.StopContainer({ container_id: sleeper, timeout: '10' });
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId });
    const stopped = await scrape(address);
    expect(value(stopped, 'berth_pod_sandboxes', { state: 'SANDBOX_READY' })).toBe(0);
    expect(value(stopped, 'berth_pod_sandboxes', { state: 'SANDBOX_NOTREADY' })).toBe(1);
    expect(value(stopped, 'berth_containers', { state: 'CONTAINER_RUNNING' })).toBe(0);
    expect(value(stopped, 'berth_shims_running')).toBe(0);
    expect(grew(running, stopped, 'berth_container_exits_total', { reason: 'Completed' })).toBe(1);
    expect(grew(running, stopped, 'berth_cni_operation_duration_seconds_count', { operation: 'teardown', result: 'success' })).toBe(1);

    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
    const removed = await scrape(address);
    expect(value(removed, 'berth_pod_sandboxes', { state: 'SANDBOX_NOTREADY' })).toBe(0);
    expect(find(removed, 'berth_containers').every((s) => s.value === 0)).toBe(true);
  });

  it("exposes berthd's own process metrics", async () => {
    const e = await scrape(address);
    expect(value(e, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
    expect(value(e, 'process_open_fds')).toBeGreaterThan(3);
    expect(value(e, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(e.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(find(e, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
  });
});
