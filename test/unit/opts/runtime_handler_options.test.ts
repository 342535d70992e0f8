import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../../internal/config';
import { buildContainerSpec } from '../../../internal/cri/opts/container_spec';
import { buildSandboxSpec } from '../../../internal/cri/opts/sandbox_spec';
import { loadBaseRuntimeSpecs, resolveRuntimeHandler, specRuntimeOptions } from '../../../internal/cri/runtime_handler';
import { kindOf } from '../../../internal/errdefs/errors';
import { containerConfig, containerInput, podConfig, sandboxInput } from './fixtures';
import { thrownBy } from '../../harness/thrown';

const thrown = (fn: () => unknown) => thrownBy(fn) as Error;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'handler-opts-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The config, with the default handler (runc) declared next to the tables under test. */
const configOf = (toml: string) => parseConfig(`${toml}\n[cri.runtimes.runc]\n`, 'test.toml');
const options = (toml: string, handler = '') => {
  const config = configOf(toml);
  return specRuntimeOptions(config, resolveRuntimeHandler(config, handler));
};

describe('per-handler pod_annotations and container_annotations', () => {
  const toml = `[cri.runtimes.kata]
pod_annotations = ["io.katacontainers.*"]
container_annotations = ["example.com/*"]
`;
  const pod = podConfig({ annotations: { 'io.katacontainers.config.hypervisor': 'qemu', 'other.io/x': 'no' } });

  it('pass matching pod annotations into the sandbox spec of that handler only', () => {
    expect(buildSandboxSpec(sandboxInput({ config: pod, runtime: options(toml, 'kata') })).annotations).toMatchObject({ 'io.katacontainers.config.hypervisor': 'qemu' });
    const viaRunc = buildSandboxSpec(sandboxInput({ config: pod, runtime: options(toml, 'runc') })).annotations!;
    expect(viaRunc['io.katacontainers.config.hypervisor']).toBeUndefined();
  });

  it('pass matching pod and container annotations into its container specs', () => {
    const cfg = containerConfig({ annotations: { 'example.com/a': '1', 'example.com/b/c': 'no: * stops at /', 'x.io/y': 'no' } });
    const spec = buildContainerSpec(containerInput({ containerConfig: cfg, sandboxConfig: pod, runtime: options(toml, 'kata') }));
    expect(spec.annotations).toMatchObject({ 'io.katacontainers.config.hypervisor': 'qemu', 'example.com/a': '1' });
    expect(Object.keys(spec.annotations!)).not.toEqual(expect.arrayContaining(['example.com/b/c']));
    expect(Object.keys(spec.annotations!)).not.toEqual(expect.arrayContaining(['x.io/y']));
    expect(Object.keys(spec.annotations!)).not.toEqual(expect.arrayContaining(['other.io/x']));
  });
});

describe('privileged_without_host_devices', () => {
  it('keeps host devices out of privileged containers of that handler', () => {
    const toml = `[cri.runtimes.vm]\nprivileged_without_host_devices = true\n`;
    const input = (handler: string) =>
      containerInput({ containerConfig: containerConfig({}, { privileged: true }), sandboxConfig: podConfig({}, { privileged: true }), runtime: options(toml, handler) });
    const withDevices = buildContainerSpec(input('runc'));
    expect(withDevices.linux!.devices!.map((d) => d.path)).toContain('/dev/fuse');
    expect(withDevices.linux!.resources!.devices).toEqual([{ allow: true, access: 'rwm' }]);
    const without = buildContainerSpec(input('vm'));
    expect(without.linux!.devices ?? []).toEqual([]);
    expect(without.linux!.resources!.devices).toEqual([{ allow: false, access: 'rwm' }]);
    expect(without.process!.capabilities!.bounding).toContain('CAP_SYS_ADMIN');
  });
});

describe('base_runtime_spec', () => {
  const base = {
    ociVersion: '1.0.2',
    process: { user: { uid: 0, gid: 0 }, cwd: '/', env: ['BASE=1', 'PATH=/base'], rlimits: [{ type: 'RLIMIT_NOFILE', hard: 5, soft: 5 }] },
    root: { path: '/elsewhere', readonly: false },
    mounts: [
      { destination: '/proc', type: 'proc', source: 'proc' },
      { destination: '/run', type: 'tmpfs', source: 'tmpfs' },
      { destination: '/base', type: 'tmpfs', source: 'tmpfs' },
    ],
    annotations: { 'base.example/kept': 'yes' },
    linux: { sysctl: { 'net.ipv4.ip_forward': '1' }, namespaces: [{ type: 'mount' }, { type: 'pid' }, { type: 'network' }, { type: 'ipc' }, { type: 'uts' }] },
  };
  const toml = (file: string) => `[cri.runtimes.based]\nbase_runtime_spec = ${JSON.stringify(file)}\n`;

  it('is where that handler\'s containers start from, adjusted as containerd adjusts it', () => {
    const file = join(dir, 'base.json');
    writeFileSync(file, JSON.stringify(base));
    const config = configOf(toml(file));
    loadBaseRuntimeSpecs(config);
    const spec = buildContainerSpec(containerInput({ runtime: specRuntimeOptions(config, resolveRuntimeHandler(config, 'based')) }));
    expect(spec.linux!.sysctl).toEqual({ 'net.ipv4.ip_forward': '1' });
    expect(spec.mounts!.map((m) => m.destination)).toEqual(expect.arrayContaining(['/proc', '/base', '/sys/fs/cgroup']));
    expect(spec.mounts!.map((m) => m.destination)).not.toContain('/run');
    expect(spec.root).toEqual({ path: 'rootfs' });
    expect(spec.process!.rlimits).toBeUndefined();
    // The base env stays under the image's and the request's; the image's PATH wins.
    expect(spec.process!.env).toEqual(expect.arrayContaining(['BASE=1', 'PATH=/bin', 'FOO=image']));
    expect(spec.annotations).toMatchObject({ 'base.example/kept': 'yes', 'io.kubernetes.cri.container-type': 'container' });
    expect(spec.linux!.cgroupsPath).toBe('/kubepods/besteffort/poduid-1234/c0ffee');
    // The file is read once: later changes do not reach containers (as containerd).
    writeFileSync(file, '{}');
    const again = buildContainerSpec(containerInput({ runtime: specRuntimeOptions(config, resolveRuntimeHandler(config, 'based')) }));
    expect(again.linux!.sysctl).toEqual({ 'net.ipv4.ip_forward': '1' });
    // Other handlers keep the default spec.
    const plain = buildContainerSpec(containerInput({ runtime: specRuntimeOptions(config, resolveRuntimeHandler(config, 'runc')) }));
    expect(plain.linux!.sysctl).toBeUndefined();
    expect(plain.annotations!['base.example/kept']).toBeUndefined();
  });

  it('is not used for the pause container', () => {
    const file = join(dir, 'base.json');
    writeFileSync(file, JSON.stringify(base));
    const spec = buildSandboxSpec(sandboxInput({ runtime: options(toml(file), 'based') }));
    expect(spec.linux!.sysctl).toBeUndefined();
  });

  it('stops the load at start when missing or not an OCI spec, naming the handler and file', () => {
    const missing = join(dir, 'missing.json');
    let err = thrown(() => loadBaseRuntimeSpecs(configOf(toml(missing))));
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(err.message).toBe(`cri.runtimes.based.base_runtime_spec "${missing}": cannot load the base OCI spec: ENOENT: no such file or directory, open '${missing}'`);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"process": []}');
    err = thrown(() => loadBaseRuntimeSpecs(configOf(toml(bad))));
    expect(err.message).toMatch(/base_runtime_spec ".*bad.json": not an OCI spec \(no ociVersion\)/);
    writeFileSync(bad, 'not json');
    expect(thrown(() => loadBaseRuntimeSpecs(configOf(toml(bad)))).message).toMatch(/cannot load the base OCI spec: Unexpected token/);
  });

  it('must be an absolute path', () => {
    expect(thrown(() => configOf(toml('base.json'))).message).toMatch(/cri.runtimes.based.base_runtime_spec/);
  });
});

describe('CDI options', () => {
  it('are on by default with containerd\'s spec dirs, and off with enable_cdi = false', () => {
    expect(options('').cdi).toBeDefined();
    expect(parseConfig('', 'x').cri.cdi_spec_dirs).toEqual(['/etc/cdi', '/var/run/cdi']);
    expect(options('[cri]\nenable_cdi = false\n').cdi).toBeUndefined();
  });
});
