// berthd as bin/berthd runs it: the esbuild bundle (hack/bundle/bundle.ts) started by its loader
// (dist/bundle/start.js) with the V8 code cache made for it. The bundle is built here into a temp
// tree laid out like the repository (package.json, node_modules, build/ and api/ beside dist/), so the
// test never writes the shared dist/; bin/berthd is run itself, so its #! line is what starts Node.
// What the bundle leaves out and loads on first use must still load: the WebSocket upgrade of the
// streaming server (ws), /metrics (prom-client), CDI spec files (yaml); and everything the daemon
// reads beside its modules (proto descriptors, package.json, the native addons). Its #! line preloads
// berth_preload.so, which must not reach the processes berthd starts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleBerthd } from '../../../hack/bundle/bundle';
import { berthdLauncher } from '../../../hack/bundle/launcher';
import { cacheFileOf, warmCacheFileOf } from '../../../cmd/berthd/bundle_start';
import { repoRoot } from '../../../internal/repo_root';
import { mapFileLatin1 } from '../../../internal/sys/map';
import { deadline, importTestImages, podDriver, testBerthToml, type PodDriver } from '../../harness/berth_env';
import { cgroupPids, leafCgroups, removeCgroupParent } from '../../harness/cgroups';
import { createCniTestEnv, type CniTestEnv } from '../../harness/cni';
import { criClient, type CriClient } from '../../harness/cri_client';
import { fdTargets } from '../../harness/proc_fds';
import { testImages } from '../../harness/images';
import { pushImage, selfSignedCert, startRegistry, startRegistryFront, type RegistryFront } from '../../harness/registry';
import { DEFERRED_EXTRA_CA_ENV } from '../../../internal/images/pull/extra_ca';
import { streamExec } from '../../harness/streaming_client';
import { metricsAddress, scrape } from '../metrics/exposition';
import { scrubHost } from '../recovery/host_state';
import { shimPidsOf } from '../cri_containers/env';

jest.setTimeout(300_000);

// The Makefile's BERTHD_NODE_FLAGS: the cache is made for them, and bin/berthd runs with them.
const NODE_FLAGS = ['--max-semi-space-size=1', '--v8-pool-size=1'];
// The Makefile's PRELOAD_SO, which bin/berthd preloads.
const PRELOAD_SO = join('build', 'Release', 'berth_preload.so');
const SLEEPER = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];
const CDI_SPEC = `cdiVersion: "0.5.0"
kind: berth.test/null
devices:
- name: n0
  containerEdits:
    env: [BERTH_CDI=injected]
`;

/** A repository-shaped temp tree whose dist/bundle is built from the sources under test. */
async function buildTree(tree: string): Promise<{ bundleDir: string; launcher: string }> {
  const repo = repoRoot();
  copyFileSync(join(repo, 'package.json'), join(tree, 'package.json'));
  for (const dir of ['node_modules', 'build', 'api']) symlinkSync(join(repo, dir), join(tree, dir));
  const bundleDir = join(tree, 'dist', 'bundle');
  await bundleBerthd(bundleDir, NODE_FLAGS);
  // What `make build` writes as bin/berthd.
  mkdirSync(join(tree, 'bin'));
  const launcher = join(tree, 'bin', 'berthd');
  const { text, preloaded } = berthdLauncher(NODE_FLAGS, join(tree, PRELOAD_SO));
  if (!preloaded) throw new Error(`${tree}: the preload does not fit in bin/berthd's #! line`);
  writeFileSync(launcher, text, { mode: 0o755 });
  return { bundleDir, launcher };
}

/** 'accepted' or 'rejected': what V8, under berthd's flags as start.js leaves them, makes of the cache file for the bundle beside it. */
function v8Takes(cacheFile: string): string {
  const bundle = cacheFile.replace(/\.(warm-)?cache$/, '');
  const startFile = join(bundle, '..', 'start.js');
  const check = spawnSync(process.execPath, [...NODE_FLAGS, '-'], {
    input: `require(${JSON.stringify(startFile)}).heapSizeFlagsToDefaults();
      const { Script } = require('node:vm'); const fs = require('node:fs');
      const source = fs.readFileSync(${JSON.stringify(bundle)}, 'latin1');
      const cache = fs.readFileSync(${JSON.stringify(cacheFile)});
      const script = new Script(source, { filename: 'berthd.js', cachedData: cache.subarray(cache.indexOf(10) + 1) });
      process.stdout.write(script.cachedDataRejected ? 'rejected' : 'accepted');`,
    encoding: 'utf8',
  });
  if (check.stderr !== '') throw new Error(check.stderr);
  return check.stdout;
}

/** The cache's header kept, every byte after it garbage V8 refuses. */
const damageAll = (cache: Buffer): Buffer => Buffer.concat([cache.subarray(0, cache.indexOf(10) + 1), Buffer.alloc(cache.length, 0x5a)]);

interface Daemon {
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<void>;
}

describe('the berthd bundle', () => {
  let tree: string;
  let bundleDir: string;
  let launcher: string;
  let cni: CniTestEnv;
  let dir: string;
  let socket: string;
  let configPath: string;
  let cgroupParent: string;
  let daemon: Daemon | undefined;
  let client: CriClient | undefined;
  let pods: PodDriver;

  /** Runs bin/berthd itself: its #! line gives Node its flags and environment. */
  async function startDaemon(env: NodeJS.ProcessEnv = process.env): Promise<void> {
    const child = spawn(launcher, ['--config', configPath, '--root', join(dir, 'root'), '--state', join(dir, 'state'), '--address', socket, '--log-level', 'info'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env,
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    daemon = { child, stderr: () => err, exited };
    const giveUp = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`berthd exited before serving:\n${err}`);
      if (existsSync(socket)) {
        const c = criClient(socket);
        try {
          await c.runtime.Version({}, { deadline: Date.now() + 2000 });
          client = c;
          return;
        } catch {
          c.close();
        }
      }
      if (Date.now() > giveUp) throw new Error(`berthd did not serve on ${socket}:\n${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function stopDaemon(signal: NodeJS.Signals): Promise<void> {
    client?.close();
    client = undefined;
    if (daemon && daemon.child.exitCode === null && daemon.child.signalCode === null) daemon.child.kill(signal);
    await daemon?.exited;
    daemon = undefined;
  }

  beforeAll(async () => {
    await testImages();
    tree = mkdtempSync(join(tmpdir(), 'berth-bundle-tree-'));
    ({ bundleDir, launcher } = await buildTree(tree));
    cni = createCniTestEnv();
    dir = mkdtempSync(join(tmpdir(), 'berth-bundle-'));
    socket = join(dir, 'berth.sock');
    configPath = join(dir, 'berth.toml');
    cgroupParent = `/berth-bundle-${randomBytes(4).toString('hex')}`;
    const registryToml = `[registry]\nconfig_path = ${JSON.stringify(join(dir, 'certs.d'))}\n`;
    const cdiDir = join(dir, 'cdi');
    mkdirSync(cdiDir);
    writeFileSync(join(cdiDir, 'berth-test.yaml'), CDI_SPEC);
    writeFileSync(
      configPath,
      testBerthToml(cni, { criToml: `cdi_spec_dirs = [${JSON.stringify(cdiDir)}]`, extraToml: `[metrics]\naddress = "127.0.0.1:0"\n\n${registryToml}` }),
    );
    pods = podDriver({ client: () => client!, cgroupParent, logDirectory: (name) => join(dir, 'logs', name) });
    await startDaemon();
    await importTestImages(client!);
  });

  afterAll(async () => {
    try {
      if (client) {
        for (const pod of (await client.runtime.ListPodSandbox({})).items) {
          await client.runtime.RemovePodSandbox({ pod_sandbox_id: pod.id }, deadline()).catch(() => undefined);
        }
      }
      await stopDaemon('SIGTERM');
    } finally {
      // Only does something when a test failed half way: nothing may outlive the test.
      if (dir) scrubHost({ dir, socket, cgroupParent });
      const giveUp = Date.now() + 10_000;
      while (cgroupParent && leafCgroups(cgroupParent).some((l) => cgroupPids(l).length > 0) && Date.now() < giveUp) {
        await new Promise((r) => setTimeout(r, 50));
      }
      cni?.cleanup();
      if (cgroupParent) removeCgroupParent(cgroupParent, '/berth-bundle-');
      if (dir) rmSync(dir, { recursive: true, force: true });
      if (tree) rmSync(tree, { recursive: true, force: true });
    }
  });

  it('writes a code cache that V8 takes for the bundle under berthd flags', () => {
    expect(v8Takes(cacheFileOf(join(bundleDir, 'berthd.js')))).toBe('accepted');
  });

  it("bundles zod's v3 API only: the v4 API that `zod` itself exports is ~500 KB more read at every start", () => {
    const map = JSON.parse(readFileSync(join(bundleDir, 'berthd.js.map'), 'utf8')) as { sources: string[] };
    const zod = map.sources.filter((s) => s.includes('node_modules/zod/'));
    expect(zod.length).toBeGreaterThan(0); // the config schema's
    expect(zod.filter((s) => !s.includes('node_modules/zod/v3/'))).toEqual([]);
  });

  it('serves Version and the CRI from the bundle', async () => {
    const v = await client!.runtime.Version({});
    expect(v).toMatchObject({ runtime_name: 'berth', runtime_api_version: 'v1' });
    expect(v.runtime_version).toBe(JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')).version);
    const images = await client!.image.ListImages({});
    expect(images.images.length).toBeGreaterThanOrEqual(2);
  });

  it('has its message codecs compiled in: serving, it opened none of the .codecs files beside it', async () => {
    await client!.runtime.ListContainers({});
    const open = fdTargets(daemon!.child.pid!);
    expect(readdirSync(join(bundleDir, 'descriptors')).filter((f) => f.endsWith('.codecs')).length).toBe(3);
    expect(open.filter((path) => path.endsWith('.codecs'))).toEqual([]);
    expect(open.some((path) => path.endsWith('metadata.db'))).toBe(true); // the control: the listing works
  });

  it('serves /metrics through prom-client, loaded from node_modules on first use', async () => {
    const exposition = await scrape(metricsAddress(daemon!.stderr()));
    expect(exposition.types.get('grpc_server_handled_total')).toBe('counter');
  });

  it('runs a pod and execs into it over SPDY and over WebSocket (ws, loaded on first use)', async () => {
    const { podId, config } = await pods.runPod('bundle');
    const id = await pods.create(podId, config, 'sleeper', SLEEPER);
    await client!.runtime.StartContainer({ container_id: id }, deadline());
    for (const transport of ['spdy', 'websocket'] as const) {
      const { url } = await client!.runtime.Exec({ container_id: id, cmd: ['echo', transport], stdout: true, stderr: true });
      const res = await streamExec(url, { transport });
      expect({ stdout: res.stdout, status: res.status?.status }).toEqual({ stdout: `${transport}\n`, status: 'Success' });
    }
  });

  it('injects a CDI device from a YAML spec file (yaml, loaded on first use)', async () => {
    const { podId, config } = await pods.runPod('bundle-cdi');
    const id = await pods.create(podId, config, 'cdi', SLEEPER, { CDI_devices: [{ name: 'berth.test/null=n0' }] });
    await client!.runtime.StartContainer({ container_id: id }, deadline());
    const res = await client!.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', 'echo $BERTH_CDI'], timeout: '10' }, deadline());
    expect({ exit: res.exit_code, out: Buffer.from(res.stdout).toString() }).toEqual({ exit: 0, out: 'injected\n' });
    // The tests below expect the first pod's container alone.
    await client!.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    await client!.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
  });

  it('recovers its running container after SIGKILL, from the bundle again', async () => {
    const [container] = (await client!.runtime.ListContainers({})).containers;
    expect(container?.state).toBe('CONTAINER_RUNNING');
    await stopDaemon('SIGKILL');
    await startDaemon();
    const after = await client!.runtime.ContainerStatus({ container_id: container!.id });
    expect(after.status?.state).toBe('CONTAINER_RUNNING');
    const res = await client!.runtime.ExecSync({ container_id: container!.id, cmd: ['echo', 'still here'], timeout: '10' }, deadline());
    expect({ exit: res.exit_code, out: Buffer.from(res.stdout).toString() }).toEqual({ exit: 0, out: 'still here\n' });
  });

  it('a berthd that served writes a warm code cache soon after, which V8 takes; the next start serves', async () => {
    const warmFile = warmCacheFileOf(join(bundleDir, 'berthd.js'));
    // The daemon serving now wrote it 5 s after it began serving, or will.
    const giveUp = Date.now() + 60_000;
    while (!existsSync(warmFile) && Date.now() < giveUp) await new Promise((r) => setTimeout(r, 100));
    await stopDaemon('SIGTERM');
    const warm = readFileSync(warmFile);
    const build = readFileSync(cacheFileOf(join(bundleDir, 'berthd.js')));
    // The same build id, and more compiled code than the build's cache (recovery, server, handlers).
    expect(warm.subarray(0, warm.indexOf(10))).toEqual(build.subarray(0, build.indexOf(10)));
    expect(warm.length).toBeGreaterThan(build.length);
    expect(v8Takes(warmFile)).toBe('accepted');
    await startDaemon();
    expect((await client!.runtime.Version({})).runtime_name).toBe('berth');
  });

  it('still starts when its code caches are damaged or were made for another build', async () => {
    const files = [cacheFileOf(join(bundleDir, 'berthd.js')), warmCacheFileOf(join(bundleDir, 'berthd.js'))];
    await stopDaemon('SIGTERM');
    const saved = files.map((f) => readFileSync(f)); // the warm one from the test above
    // Each daemon below is stopped before it could write a warm cache of its own (5 s after serving).
    const stopSoon = () => stopDaemon('SIGKILL');
    try {
      for (const damage of [
        damageAll, // this build's id, garbage V8 refuses
        (cache: Buffer) => Buffer.concat([Buffer.from(`${'0'.repeat(64)}\n`), cache.subarray(cache.indexOf(10) + 1)]), // another build's id: never used
      ]) {
        files.forEach((f, i) => writeFileSync(f, damage(saved[i]!)));
        await startDaemon();
        expect((await client!.runtime.Version({})).runtime_name).toBe('berth');
        await stopSoon();
      }
      // Only the warm cache damaged: the build's is used.
      writeFileSync(files[0]!, saved[0]!);
      writeFileSync(files[1]!, damageAll(saved[1]!));
      await startDaemon();
      expect((await client!.runtime.Version({})).runtime_name).toBe('berth');
      await stopSoon();
    } finally {
      files.forEach((f, i) => writeFileSync(f, saved[i]!));
    }
  });

  it("keeps NODE_EXTRA_CA_CERTS out of Node's start-up, and still pulls from a registry only that file vouches for", async () => {
    const registry = await startRegistry();
    let front: RegistryFront | undefined;
    try {
      await pushImage(registry.url, (await testImages()).pauseOci, 'extra-ca/app:1');
      const { certFile, cert, key } = selfSignedCert(dir);
      front = await startRegistryFront({ upstream: registry.url, tls: { cert, key } });
      mkdirSync(join(dir, 'certs.d', front.host), { recursive: true });
      writeFileSync(join(dir, 'certs.d', front.host, 'hosts.toml'), `server = "${front.url}"\n`);
      await stopDaemon('SIGTERM');
      await startDaemon({ ...process.env, NODE_EXTRA_CA_CERTS: certFile });
      // What Node itself started with: the file under the hand-over name only.
      const environ = readFileSync(`/proc/${daemon!.child.pid}/environ`, 'utf8').split('\0');
      expect(environ.filter((v) => v.startsWith('NODE_EXTRA_CA_CERTS='))).toEqual([]);
      expect(environ).toContain(`${DEFERRED_EXTRA_CA_ENV}=${certFile}`);
      const { image_ref } = await client!.image.PullImage({ image: { image: `${front.host}/extra-ca/app:1` } }, deadline());
      expect(image_ref).toMatch(/^sha256:/);
      expect(front.seen.some((r) => r.scheme === 'https' && /\/manifests\//.test(r.path))).toBe(true);
    } finally {
      await front?.close();
      await registry.stop();
    }
  });

  it("starts Node with its preload, which the shims it starts do not get; the operator's LD_PRELOAD they do", async () => {
    // The maps name the file by its real path (the tree's build/ is a link to the repository's).
    const mapsPreload = () => readFileSync(`/proc/${daemon!.child.pid}/maps`, 'utf8').includes(realpathSync(join(tree, PRELOAD_SO)));
    /** Runs a pod; the LD_PRELOAD entries its shim (the one shim that appeared) started with. */
    const runPodShimPreload = async (name: string) => {
      const before = new Set(shimPidsOf(socket));
      const pod = await pods.runPod(name);
      const started = shimPidsOf(socket).filter((pid) => !before.has(pid));
      expect(started).toHaveLength(1);
      const preload = readFileSync(`/proc/${started[0]}/environ`, 'utf8')
        .split('\0')
        .filter((v) => v.startsWith('LD_PRELOAD='));
      return { podId: pod.podId, preload };
    };
    expect(mapsPreload()).toBe(true);
    const plain = await runPodShimPreload('bundle-preload');
    expect(plain.preload).toEqual([]);
    // ld.so cannot load this one and says so (in berthd's and the shim's stderr), then goes on.
    const operators = '/nonexistent/berth-operator-preload.so';
    await stopDaemon('SIGTERM');
    await startDaemon({ ...process.env, LD_PRELOAD: operators });
    expect(mapsPreload()).toBe(true);
    const withOperators = await runPodShimPreload('bundle-preload-operator');
    expect(withOperators.preload).toEqual([`LD_PRELOAD=${operators}`]);
    for (const { podId } of [plain, withOperators]) {
      await client!.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
      await client!.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    }
    await stopDaemon('SIGTERM');
    await startDaemon();
  });

  it('maps its bundle, and a rebuild under a running berthd replaces the files by rename: the mapped old bundle stays whole', async () => {
    const bundle = join(bundleDir, 'berthd.js');
    const files = [bundle, cacheFileOf(bundle), `${bundle}.map`];
    const mapsOf = (pid: number) => readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n');
    // Mapped, not read: the running daemon's address space has the bundle file in it.
    expect(mapsOf(daemon!.child.pid!).some((l) => l.endsWith(` ${bundle}`))).toBe(true);
    const inodes = files.map((f) => statSync(f).ino);
    const text = readFileSync(bundle, 'latin1');
    const mapped = mapFileLatin1(bundle); // as start.js maps it
    await bundleBerthd(bundleDir, NODE_FLAGS);
    expect(files.map((f) => statSync(f).ino).filter((ino, i) => ino === inodes[i])).toEqual([]);
    expect(mapped === text).toBe(true); // rewritten in place, the mapping would show the new file (or fault)
    // The daemon keeps the old file mapped and still runs code it compiles from it now.
    expect(mapsOf(daemon!.child.pid!).some((l) => l.endsWith(` ${bundle} (deleted)`))).toBe(true);
    expect((await client!.runtime.ListContainers({}, deadline())).containers).toBeDefined();
    expect((await client!.runtime.Version({})).runtime_name).toBe('berth');
  });
});
