// CRI runtime.v1alpha2 beside runtime.v1, as containerd 1.6/1.7 serve it (kubelets before 1.23 speak
// only v1alpha2): through a real berthd a v1alpha2 client runs pods and containers, execs, pulls and
// lists images, and sees the same pods, containers and images as a v1 client. Version answers in
// each package's own name; UNIMPLEMENTED names the v1alpha2 method.
import * as grpc from '@grpc/grpc-js';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unixTarget } from '../../../internal/api/cri';
import type { PodSandboxConfig } from '../../../internal/api/gen/runtime/v1alpha2/PodSandboxConfig';
import { defaultConfig } from '../../../internal/config';
import { HandlerRegistry } from '../../../internal/cri/server/registry';
import { CriService } from '../../../internal/cri/server/service';
import { notFound } from '../../../internal/errdefs/errors';
import { createLogger } from '../../../internal/log/logger';
import { deadline, importTestImages, podDriver, testBerthToml, type PodDriver } from '../../harness/berth_env';
import { removeCgroupParent } from '../../harness/cgroups';
import { createCniTestEnv, type CniTestEnv } from '../../harness/cni';
import { callError, criClient, criClientV1alpha2, type CriClient, type CriClientV1alpha2 } from '../../harness/cri_client';
import { startBerthd, type RunningBerthd } from '../../harness/daemon';
import { serveFrame } from '../../harness/grpc_frame';
import { BUSYBOX_IMAGE, testImages } from '../../harness/images';
import { pushImage, startRegistry, type RunningRegistry } from '../../harness/registry';

jest.setTimeout(180_000);

const SLEEPER = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];

describe('CRI runtime.v1alpha2 through a real berthd', () => {
  let cni: CniTestEnv;
  let registry: RunningRegistry;
  let scratch: string;
  let daemon: RunningBerthd;
  let v1: CriClient;
  let alpha: CriClientV1alpha2;
  let driver: PodDriver; // v1 pods and containers
  const cgroupParent = `/berth-v1a2-${randomBytes(4).toString('hex')}`;

  /** A pod config as kubelet 1.20 sends it, in v1alpha2's own types. */
  const alphaPodConfig = (name: string): PodSandboxConfig => ({
    metadata: { name, uid: randomUUID(), namespace: 'berth-test', attempt: 0 },
    hostname: name,
    log_directory: join(scratch, 'pods', name),
    linux: {
      cgroup_parent: cgroupParent,
      security_context: { namespace_options: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } },
    },
  });

  beforeAll(async () => {
    const paths = await testImages();
    cni = createCniTestEnv();
    scratch = mkdtempSync(join(tmpdir(), 'berth-v1a2-'));
    registry = await startRegistry();
    await pushImage(registry.url, paths.busyboxOci, 'berth/busybox:alpha');
    const hostsDir = join(scratch, 'hosts');
    mkdirSync(join(hostsDir, registry.host), { recursive: true });
    writeFileSync(
      join(hostsDir, registry.host, 'hosts.toml'),
      `server = "${registry.url}"\n\n[host."${registry.url}"]\n  capabilities = ["pull", "resolve"]\n`,
    );
    daemon = await startBerthd({ configToml: testBerthToml(cni, { extraToml: `[registry]\nconfig_path = "${hostsDir}"\n` }) });
    v1 = criClient(daemon.socket);
    alpha = criClientV1alpha2(daemon.socket);
    await importTestImages(v1);
    driver = podDriver({ client: () => v1, cgroupParent, logDirectory: (name) => join(scratch, 'pods', name) });
  });

  afterAll(async () => {
    try {
      if (v1) {
        const { items } = await v1.runtime.ListPodSandbox({});
        for (const pod of items) await v1.runtime.RemovePodSandbox({ pod_sandbox_id: pod.id }, deadline()).catch(() => undefined);
      }
    } finally {
      v1?.close();
      alpha?.close();
      await daemon?.stop();
      await registry?.stop();
      cni?.cleanup();
      removeCgroupParent(cgroupParent, '/berth-v1a2-');
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('answers Version in each package with its own API version', async () => {
    const common = { version: '0.1.0', runtime_name: 'berth' };
    expect(await v1.runtime.Version({ version: '0.1.0' })).toMatchObject({ ...common, runtime_api_version: 'v1' });
    expect(await alpha.runtime.Version({ version: '0.1.0' })).toMatchObject({ ...common, runtime_api_version: 'v1alpha2' });
  });

  it('runs a pod and a container through v1alpha2 (env as a string KeyValue), seen from v1', async () => {
    const pod = alphaPodConfig('alpha-made');
    const { pod_sandbox_id: podId } = await alpha.runtime.RunPodSandbox({ config: pod }, deadline());
    const { container_id: id } = await alpha.runtime.CreateContainer(
      {
        pod_sandbox_id: podId,
        sandbox_config: pod,
        config: {
          metadata: { name: 'main', attempt: 0 },
          image: { image: BUSYBOX_IMAGE },
          command: SLEEPER,
          envs: [{ key: 'GREETING', value: 'hello from v1alpha2' }],
          log_path: 'main/0.log',
          linux: { security_context: { namespace_options: pod.linux!.security_context!.namespace_options } },
        },
      },
      deadline(),
    );
    await alpha.runtime.StartContainer({ container_id: id }, deadline());

    const { status } = await alpha.runtime.ContainerStatus({ container_id: id });
    expect(status).toMatchObject({ id, state: 'CONTAINER_RUNNING', metadata: { name: 'main', attempt: 0 }, log_path: join(pod.log_directory!, 'main/0.log') });
    expect(status!.image?.image).toBe(BUSYBOX_IMAGE);

    const greet = await alpha.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', 'echo "$GREETING"; echo err >&2; exit 3'], timeout: '10' });
    expect({ stdout: greet.stdout.toString(), stderr: greet.stderr.toString(), exit: greet.exit_code }).toEqual({
      stdout: 'hello from v1alpha2\n',
      stderr: 'err\n',
      exit: 3,
    });
    const { url } = await alpha.runtime.Exec({ container_id: id, cmd: ['sh'], stdout: true });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const { stats } = await alpha.runtime.ListContainerStats({ filter: { id } });
    expect(stats.map((s) => s.attributes?.id)).toEqual([id]);

    // The same pod and container, from a v1 client.
    const { items } = await v1.runtime.ListPodSandbox({ filter: { id: podId } });
    expect(items.map((p) => [p.id, p.metadata?.name, p.state])).toEqual([[podId, 'alpha-made', 'SANDBOX_READY']]);
    const { containers } = await v1.runtime.ListContainers({ filter: { pod_sandbox_id: podId } });
    expect(containers.map((c) => [c.id, c.state])).toEqual([[id, 'CONTAINER_RUNNING']]);
    const viaV1 = await v1.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', 'echo "$GREETING"'], timeout: '10' });
    expect(viaV1.stdout.toString()).toBe('hello from v1alpha2\n');

    await alpha.runtime.StopContainer({ container_id: id, timeout: '10' }, deadline());
    expect((await v1.runtime.ContainerStatus({ container_id: id })).status).toMatchObject({ state: 'CONTAINER_EXITED', exit_code: 0 });
    // Each package's list shows the change (both encode the same kept items, each with its own types).
    for (const client of [v1, alpha]) {
      const listed = await client.runtime.ListContainers({ filter: { pod_sandbox_id: podId } });
      expect(listed.containers.map((c) => [c.id, c.state])).toEqual([[id, 'CONTAINER_EXITED']]);
    }
    await alpha.runtime.RemoveContainer({ container_id: id }, deadline());
    await alpha.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    await alpha.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect((await v1.runtime.ListPodSandbox({ filter: { id: podId } })).items).toEqual([]);
  });

  it('shows a pod and a container made through v1 to a v1alpha2 client', async () => {
    const { podId, config } = await driver.runPod('v1-made');
    const id = await driver.create(podId, config, 'main', SLEEPER, { envs: [{ key: 'FROM', value: Buffer.from('v1') }] });
    await v1.runtime.StartContainer({ container_id: id }, deadline());

    const { items } = await alpha.runtime.ListPodSandbox({ filter: { id: podId } });
    expect(items.map((p) => [p.id, p.metadata?.name, p.state])).toEqual([[podId, 'v1-made', 'SANDBOX_READY']]);
    const { status: podStatus } = await alpha.runtime.PodSandboxStatus({ pod_sandbox_id: podId });
    expect(podStatus?.network?.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const { containers } = await alpha.runtime.ListContainers({ filter: { pod_sandbox_id: podId } });
    expect(containers.map((c) => [c.id, c.state])).toEqual([[id, 'CONTAINER_RUNNING']]);
    const { status } = await alpha.runtime.ContainerStatus({ container_id: id });
    expect(status).toMatchObject({ id, state: 'CONTAINER_RUNNING' });
    const out = await alpha.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', 'echo "$FROM"'], timeout: '10' });
    expect(out).toMatchObject({ exit_code: 0 });
    expect(out.stdout.toString()).toBe('v1\n');

    const missing = await callError(alpha.runtime.ContainerStatus({ container_id: 'no-such-container' }));
    expect(missing.code).toBe(grpc.status.NOT_FOUND);
  });

  it('pulls and lists images through v1alpha2 ImageService, the same images v1 lists', async () => {
    const ref = `${registry.host}/berth/busybox:alpha`;
    const { image_ref } = await alpha.image.PullImage({ image: { image: ref } }, deadline());
    expect(image_ref).toMatch(/^sha256:[0-9a-f]{64}$/);
    const { image } = await alpha.image.ImageStatus({ image: { image: ref } });
    // The pushed busybox is the imported one under another name: one image, both tags.
    expect(image).toMatchObject({ id: image_ref, repo_tags: expect.arrayContaining([ref, BUSYBOX_IMAGE]) });

    const listed = (await alpha.image.ListImages({})).images.map((i) => [i.id, [...i.repo_tags].sort()]);
    expect(listed).toContainEqual([image_ref, expect.arrayContaining([ref])]);
    const listedV1 = (await v1.image.ListImages({})).images.map((i) => [i.id, [...i.repo_tags].sort()]);
    expect(listed.sort()).toEqual(listedV1.sort());

    const { image_filesystems } = await alpha.image.ImageFsInfo({});
    expect(Number(image_filesystems[0]?.used_bytes?.value)).toBeGreaterThan(0);
  });

  it('does not serve v1-only methods under runtime.v1alpha2, as containerd 1.6 does not', async () => {
    const raw = new grpc.Client(unixTarget(daemon.socket), grpc.credentials.createInsecure());
    try {
      const err = await callError(
        new Promise((resolve, reject) =>
          raw.makeUnaryRequest(
            '/runtime.v1alpha2.RuntimeService/RuntimeConfig',
            (b: Buffer) => b,
            (b: Buffer) => b,
            Buffer.alloc(0),
            (e, res) => (e ? reject(e) : resolve(res)),
          ),
        ),
      );
      expect(err.code).toBe(grpc.status.UNIMPLEMENTED);
      expect(err.details).toContain('/runtime.v1alpha2.RuntimeService/RuntimeConfig');
    } finally {
      raw.close();
    }
    // The v1alpha2 method itself is served.
    expect((await alpha.runtime.Status({})).status?.conditions.map((c) => c.type)).toContain('RuntimeReady');
  });
});

describe('CRI runtime.v1alpha2 in the gRPC frame', () => {
  let dir: string;
  let server: grpc.Server;
  let alpha: CriClientV1alpha2;
  const logLines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-v1a2-frame-'));
    const logger = createLogger({ level: 'debug', write: (line) => logLines.push(JSON.parse(line) as Record<string, unknown>) });
    const svc = new CriService({ config: defaultConfig(), logger });
    // One v1 handler, and a request the v1alpha2 client sends as KeyValue string values.
    const registry = new HandlerRegistry().register('RuntimeService', {
      CreateContainer: async (_svc, req) => {
        const env = req.config?.envs.map((e) => `${e.key}=${Buffer.isBuffer(e.value) ? `bytes:${e.value.toString('utf8')}` : typeof e.value}`).join(',') ?? '';
        throw notFound(`pod "${req.pod_sandbox_id}" not found (env ${env})`);
      },
    });
    const socket = join(dir, 'frame.sock');
    server = await serveFrame(svc, registry, socket);
    alpha = criClientV1alpha2(socket);
  });

  afterAll(() => {
    alpha?.close();
    server?.forceShutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers UNIMPLEMENTED naming the v1alpha2 method for what nobody registered', async () => {
    const cases: Array<[Promise<unknown>, string]> = [
      [alpha.runtime.ExecSync({ container_id: 'c1', cmd: ['true'] }), 'runtime.v1alpha2.RuntimeService/ExecSync'],
      [alpha.image.ListImages({}), 'runtime.v1alpha2.ImageService/ListImages'],
    ];
    for (const [call, method] of cases) {
      const err = await callError(call);
      expect(err.code).toBe(grpc.status.UNIMPLEMENTED);
      expect(err.details).toBe(`${method} is not implemented by berth`);
    }
  });

  it('hands the v1 handler a v1 request (KeyValue bytes) and logs the v1alpha2 method', async () => {
    const err = await callError(
      alpha.runtime.CreateContainer({ pod_sandbox_id: 'p1', config: { envs: [{ key: 'A', value: 'b=c' }] } }),
    );
    expect(err.code).toBe(grpc.status.NOT_FOUND);
    expect(err.details).toBe('pod "p1" not found (env A=bytes:b=c)');
    expect(logLines).toContainEqual(
      expect.objectContaining({ level: 'warn', method: 'runtime.v1alpha2.RuntimeService/CreateContainer', pod_sandbox_id: 'p1' }),
    );
  });
});
