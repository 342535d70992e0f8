import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyEdits } from '../../../internal/cri/cdi/edits';
import { devicesFromAnnotations, parseQualifiedName } from '../../../internal/cri/cdi/names';
import { CdiRegistry } from '../../../internal/cri/cdi/registry';
import { parseCdiSpec } from '../../../internal/cri/cdi/spec_file';
import { buildContainerSpec } from '../../../internal/cri/opts/container_spec';
import { requestedCdiDevices } from '../../../internal/cri/opts/cdi_devices';
import { kindOf } from '../../../internal/errdefs/errors';
import { defaultUnixSpec, type LinuxDevice, type Spec } from '../../../internal/oci/spec';
import { containerConfig, containerInput, RUNTIME } from '../opts/fixtures';
import { thrownBy } from '../../harness/thrown';

const NULL: LinuxDevice = { path: '/dev/null', type: 'c', major: 1, minor: 3, fileMode: 0o666, uid: 0, gid: 0 };
const hostDevices: Record<string, LinuxDevice> = { '/dev/null': NULL, '/dev/fifo0': { path: '/dev/fifo0', type: 'p', major: 0, minor: 0, fileMode: 0o600 } };
const statDevice = (p: string): LinuxDevice | undefined => {
  if (p === '/dev/link') return undefined; // a symlink: lstat sees no device
  const d = hostDevices[p];
  if (d === undefined) throw new Error(`ENOENT: no such file or directory, lstat '${p}'`);
  return d;
};

const thrown = (fn: () => unknown) => thrownBy(fn) as Error;

const freshSpec = (): Spec => defaultUnixSpec('c1', 'k8s.io');

describe('CDI device names and annotations', () => {
  it('splits vendor/class=name and refuses what the reference parser refuses', () => {
    expect(parseQualifiedName('vendor.com/gpu=0', 'x')).toEqual({ vendor: 'vendor.com', class: 'gpu', name: '0' });
    expect(parseQualifiedName('nvidia.com/gpu=GPU-1:mig.2', 'x').name).toBe('GPU-1:mig.2');
    for (const bad of ['gpu=0', 'vendor.com/gpu', 'vendor.com/gpu=', '/dev/gpu=0', '1vendor/gpu=0', 'vendor/gpu-=0', 'vendor/gpu=a:', 'vendor/g pu=0']) {
      expect(kindOf(thrown(() => parseQualifiedName(bad, 'x')))).toBe('InvalidArgument');
    }
  });

  it('collects cdi.k8s.io/* annotation values (comma-separated), ignoring other keys', () => {
    expect(devicesFromAnnotations({ 'cdi.k8s.io/b': 'v.com/c=2', 'cdi.k8s.io/a': 'v.com/c=0,v.com/c=1', other: 'x=y' })).toEqual(['v.com/c=0', 'v.com/c=1', 'v.com/c=2']);
    expect(thrown(() => devicesFromAnnotations({ 'cdi.k8s.io/a': 'v.com/c=0,nope' })).message).toMatch(/annotation cdi.k8s.io\/a: "nope" is not a qualified CDI device name/);
  });

  it('takes cdi_devices first, then annotations, each name once', () => {
    const cfg = containerConfig({ CDI_devices: [{ name: 'v.com/c=1' }, { name: 'v.com/c=0' }], annotations: { 'cdi.k8s.io/x': 'v.com/c=0,v.com/c=2' } });
    expect(requestedCdiDevices(cfg)).toEqual(['v.com/c=1', 'v.com/c=0', 'v.com/c=2']);
  });
});

describe('CDI spec files', () => {
  const minimal = { cdiVersion: '0.3.0', kind: 'vendor.com/dev', devices: [{ name: 'a', containerEdits: { env: ['A=1'] } }] };

  it('reads JSON and YAML', () => {
    expect(parseCdiSpec(JSON.stringify(minimal), '/x.json').devices.get('a')).toEqual({ env: ['A=1'] });
    const yaml = ['cdiVersion: "0.5.0"', 'kind: vendor.com/dev', 'devices:', '- name: "0"', '  containerEdits:', '    deviceNodes:', '    - path: /dev/x', '      hostPath: /dev/null', 'containerEdits:', '  env: [G=1]', ''].join('\n');
    const spec = parseCdiSpec(yaml, '/x.yaml');
    expect(spec).toMatchObject({ vendor: 'vendor.com', class: 'dev', edits: { env: ['G=1'] } });
    expect(spec.devices.get('0')).toEqual({ deviceNodes: [{ path: '/dev/x', hostPath: '/dev/null' }] });
  });

  it('refuses unknown keys, unsupported versions, features newer than the declared version, and bad devices', () => {
    const bad = (o: object) => thrown(() => parseCdiSpec(JSON.stringify({ ...minimal, ...o }), '/x.json')).message;
    expect(bad({ extra: 1 })).toMatch(/Unrecognized key/);
    expect(bad({ cdiVersion: '0.7.0' })).toMatch(/cdiVersion "0.7.0" is not supported/);
    expect(bad({ cdiVersion: '0.4.0', devices: [{ name: '0', containerEdits: { env: ['A=1'] } }] })).toMatch(/features of cdiVersion 0.5.0/);
    expect(bad({ devices: [{ name: 'a', containerEdits: { mounts: [{ hostPath: '/h', containerPath: '/c', type: 'bind' }] } }] })).toMatch(/cdiVersion 0.4.0/);
    expect(bad({ kind: 'nokind' })).toMatch(/not vendor\/class/);
    expect(bad({ devices: [] })).toMatch(/no devices/);
    expect(bad({ devices: [{ name: 'a', containerEdits: {} }] })).toMatch(/no container edits/);
    expect(bad({ devices: [...minimal.devices, ...minimal.devices] })).toMatch(/defined twice/);
    expect(bad({ devices: [{ name: 'a', containerEdits: { env: ['NOEQUALS'] } }] })).toMatch(/KEY=VALUE/);
    expect(bad({ devices: [{ name: 'a', containerEdits: { deviceNodes: [{ path: '/dev/x', major: -1 }] } }] })).toMatch(/major/);
    expect(bad({ devices: [{ name: 'a', containerEdits: { hooks: [{ hookName: 'never', path: '/h' }] } }] })).toMatch(/hookName/);
  });
});

describe('applying CDI container edits', () => {
  it('replaces an env entry of the same key and appends new ones', () => {
    const spec = freshSpec();
    spec.process!.env = ['PATH=/bin', 'A=old'];
    applyEdits(spec, { env: ['A=new', 'B=2'] }, statDevice);
    expect(spec.process!.env).toEqual(['PATH=/bin', 'A=new', 'B=2']);
  });

  it('fills a device node from the host node, allows it in the device cgroup, and gives it the container user', () => {
    const spec = freshSpec();
    spec.process!.user = { uid: 1000, gid: 2000 };
    applyEdits(spec, { deviceNodes: [{ path: '/dev/vendor0', hostPath: '/dev/null' }] }, statDevice);
    expect(spec.linux!.devices).toEqual([{ path: '/dev/vendor0', type: 'c', major: 1, minor: 3, fileMode: 0o666, uid: 1000, gid: 2000 }]);
    expect(spec.linux!.resources!.devices!.at(-1)).toEqual({ allow: true, type: 'c', major: 1, minor: 3, access: 'rwm' });
  });

  it('keeps what the spec file pins, honours permissions, and replaces a device at the same path', () => {
    const spec = freshSpec();
    spec.linux!.devices = [{ path: '/dev/x', type: 'c', major: 9, minor: 9 }];
    applyEdits(
      spec,
      { deviceNodes: [{ path: '/dev/x', type: 'b', major: 7, minor: 1, permissions: 'r', uid: 5 }, { path: '/dev/y', type: 'c', major: 7, minor: 2, permissions: 'none' }] },
      statDevice,
    );
    expect(spec.linux!.devices).toEqual([
      { path: '/dev/x', type: 'b', major: 7, minor: 1, uid: 5 },
      { path: '/dev/y', type: 'c', major: 7, minor: 2 },
    ]);
    expect(spec.linux!.resources!.devices!.slice(-2)).toEqual([
      { allow: true, type: 'b', major: 7, minor: 1, access: 'r' },
      { allow: true, type: 'c', major: 7, minor: 2, access: '' },
    ]);
  });

  it('adds no cgroup rule for a fifo, and fails for an unbacked or mismatched node', () => {
    const spec = freshSpec();
    const rules = spec.linux!.resources!.devices!.length;
    applyEdits(spec, { deviceNodes: [{ path: '/dev/fifo0' }] }, statDevice);
    expect(spec.linux!.devices).toEqual([{ path: '/dev/fifo0', type: 'p', major: 0, minor: 0, fileMode: 0o600 }]);
    expect(spec.linux!.resources!.devices!.length).toBe(rules);
    expect(thrown(() => applyEdits(freshSpec(), { deviceNodes: [{ path: '/dev/missing' }] }, statDevice)).message).toMatch(/host device "\/dev\/missing": ENOENT/);
    expect(thrown(() => applyEdits(freshSpec(), { deviceNodes: [{ path: '/dev/link' }] }, statDevice)).message).toMatch(/not a device node/);
    expect(thrown(() => applyEdits(freshSpec(), { deviceNodes: [{ path: '/dev/null', type: 'b' }] }, statDevice)).message).toMatch(/type b, but host device "\/dev\/null" is c/);
  });

  it('replaces a mount at the same destination and orders mounts parents first', () => {
    const spec: Spec = { ociVersion: '1.0.2', mounts: [{ destination: '/a/b/c', source: 'x' }, { destination: '/opt', source: 'old' }] };
    applyEdits(spec, { mounts: [{ hostPath: '/h/lib', containerPath: '/a', options: ['ro', 'bind'] }, { hostPath: '/h/opt', containerPath: '/opt' }] }, statDevice);
    expect(spec.mounts).toEqual([
      { destination: '/a', source: '/h/lib', options: ['ro', 'bind'] },
      { destination: '/opt', source: '/h/opt' },
      { destination: '/a/b/c', source: 'x' },
    ]);
  });

  it('appends hooks to their phase', () => {
    const spec = freshSpec();
    applyEdits(spec, { hooks: [{ hookName: 'createContainer', path: '/bin/hook', args: ['hook', 'x'], env: ['E=1'], timeout: 5 }, { hookName: 'poststop', path: '/bin/done' }] }, statDevice);
    expect(spec.hooks).toEqual({ createContainer: [{ path: '/bin/hook', args: ['hook', 'x'], env: ['E=1'], timeout: 5 }], poststop: [{ path: '/bin/done' }] });
  });
});

describe('CdiRegistry', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cdi-'));
    mkdirSync(join(dir, 'etc'));
    mkdirSync(join(dir, 'run'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const registry = () => new CdiRegistry({ specDirs: [join(dir, 'etc'), join(dir, 'run'), join(dir, 'absent')], statDevice });
  const write = (rel: string, spec: object) => writeFileSync(join(dir, rel), JSON.stringify(spec));
  const device = (name: string, env: string) => ({ name, containerEdits: { env: [env] } });

  it('applies the spec-wide edits once, before the first of its devices, then each device in request order', () => {
    write('etc/v.json', { cdiVersion: '0.3.0', kind: 'v.com/gpu', containerEdits: { env: ['SPEC=1'] }, devices: [device('a', 'A=1'), device('b', 'B=1')] });
    const spec: Spec = { ociVersion: '1.0.2', process: { user: { uid: 0, gid: 0 }, cwd: '/', env: [] } };
    registry().inject(spec, ['v.com/gpu=b', 'v.com/gpu=a']);
    expect(spec.process!.env).toEqual(['SPEC=1', 'B=1', 'A=1']);
  });

  it('takes a device from the later directory, and drops one defined twice in the same directory', () => {
    write('etc/v.json', { cdiVersion: '0.3.0', kind: 'v.com/gpu', devices: [device('a', 'FROM=etc'), device('dup', 'X=1')] });
    write('run/v.yaml', { cdiVersion: '0.3.0', kind: 'v.com/gpu', devices: [device('a', 'FROM=run')] });
    write('etc/w.json', { cdiVersion: '0.3.0', kind: 'v.com/gpu', devices: [device('dup', 'X=2')] });
    writeFileSync(join(dir, 'etc/ignored.txt'), 'not a spec');
    const spec: Spec = { ociVersion: '1.0.2', process: { user: { uid: 0, gid: 0 }, cwd: '/', env: [] } };
    registry().inject(spec, ['v.com/gpu=a']);
    expect(spec.process!.env).toEqual(['FROM=run']);
    const err = thrown(() => registry().inject(spec, ['v.com/gpu=dup']));
    expect(kindOf(err)).toBe('NotFound');
    expect(err.message).toMatch(/unresolvable CDI devices v.com\/gpu=dup .*also defined in/);
  });

  it('fails for an unknown device, naming spec files it could not read', () => {
    writeFileSync(join(dir, 'run/broken.yaml'), 'cdiVersion: [');
    const err = thrown(() => registry().inject(freshSpec(), ['v.com/gpu=none']));
    expect(kindOf(err)).toBe('NotFound');
    expect(err.message).toContain('unresolvable CDI devices v.com/gpu=none');
    expect(err.message).toContain(join(dir, 'run/broken.yaml'));
  });

  it('is reached from buildContainerSpec after the user is set, and not at all with CDI off', () => {
    write('etc/v.json', { cdiVersion: '0.5.0', kind: 'v.com/gpu', devices: [{ name: 'a', containerEdits: { env: ['GPU=a'], deviceNodes: [{ path: '/dev/gpu0', hostPath: '/dev/null' }] } }] });
    const cfg = containerConfig({ CDI_devices: [{ name: 'v.com/gpu=a' }] }, { run_as_user: { value: '1000' } });
    const spec = buildContainerSpec(containerInput({ containerConfig: cfg, runtime: { ...RUNTIME, cdi: registry() } }));
    expect(spec.process!.env).toContain('GPU=a');
    expect(spec.linux!.devices).toContainEqual({ path: '/dev/gpu0', type: 'c', major: 1, minor: 3, fileMode: 0o666, uid: 1000, gid: 1000 });
    const off = buildContainerSpec(containerInput({ containerConfig: cfg }));
    expect(off.process!.env).not.toContain('GPU=a');
    const unknown = containerConfig({ annotations: { 'cdi.k8s.io/x': 'v.com/gpu=b' } });
    expect(kindOf(thrown(() => buildContainerSpec(containerInput({ containerConfig: unknown, runtime: { ...RUNTIME, cdi: registry() } }))))).toBe('NotFound');
  });
});
