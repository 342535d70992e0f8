import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyFlags, defaultConfig, loadConfig, parseConfig } from '../../../internal/config';
import { BerthError } from '../../../internal/errdefs/errors';

function errorOf(fn: () => unknown): BerthError {
  try {
    fn();
  } catch (err) {
    if (err instanceof BerthError) return err;
    throw err;
  }
  throw new Error('expected an error');
}

describe('config defaults', () => {
  it('lets berthd run with no file', () => {
    const c = loadConfig();
    expect(c).toEqual(defaultConfig());
    expect(c.root).toBe('/var/lib/berth');
    expect(c.state).toBe('/run/berth');
    expect(c.address).toBe('/run/berth/berth.sock');
    expect(c.log_level).toBe('info');
    expect(c.cri).toEqual({
      sandbox_image: 'registry.k8s.io/pause:3.9',
      default_runtime: 'runc',
      restrict_oom_score_adj: false,
      max_container_log_line_size: 16384,
      disable_hugetlb_controller: true,
      ignore_image_defined_volumes: false,
      enable_unprivileged_ports: true,
      enable_unprivileged_icmp: true,
      enable_selinux: false,
      enable_cdi: true,
      cdi_spec_dirs: ['/etc/cdi', '/var/run/cdi'],
      stream_server_address: '127.0.0.1',
      stream_server_port: '0',
      runtimes: { runc: { runtime_type: 'io.containerd.runc.v2', options: {}, pod_annotations: [], container_annotations: [], privileged_without_host_devices: false, base_runtime_spec: '' } },
    });
    expect(c.cni).toEqual({ bin_dirs: ['/usr/lib/cni', '/opt/cni/bin'], conf_dir: '/etc/cni/net.d', max_conf_num: 1 });
    expect(c.registry).toEqual({ config_path: '' });
  });

  it('gives the same answer for an empty file', () => {
    expect(parseConfig('', 'empty.toml')).toEqual(defaultConfig());
  });

  it('matches configs/berth.toml, which writes the defaults out', () => {
    expect(loadConfig(join(__dirname, '../../../configs/berth.toml'))).toEqual(defaultConfig());
  });
});

describe('config file', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every key', () => {
    const path = join(dir, 'berth.toml');
    writeFileSync(
      path,
      `root = "/srv/berth"
state = "/run/b"
address = "/run/b/b.sock"
log_level = "debug"

[cri]
sandbox_image = "localhost:5000/pause:1"
default_runtime = "fast"
restrict_oom_score_adj = true
max_container_log_line_size = 1024
disable_hugetlb_controller = false
enable_selinux = false
stream_server_address = "0.0.0.0"
stream_server_port = "10010"

[cri.runtimes.fast]
runtime_type = "io.containerd.runc.v2"
[cri.runtimes.fast.options]
BinaryName = "/usr/sbin/runc"
Root = "/run/fast-runc"
SystemdCgroup = true

[cri.runtimes.plain]

[cni]
bin_dirs = ["/usr/lib/cni"]
conf_dir = "/tmp/cni"
max_conf_num = 3

[registry]
config_path = "/etc/berth/certs.d"
`,
    );
    const c = loadConfig(path);
    expect(c.root).toBe('/srv/berth');
    expect(c.log_level).toBe('debug');
    expect(c.cri.default_runtime).toBe('fast');
    expect(c.cri.restrict_oom_score_adj).toBe(true);
    expect(c.cri.max_container_log_line_size).toBe(1024);
    expect(c.cri.disable_hugetlb_controller).toBe(false);
    expect(c.cri.stream_server_port).toBe('10010');
    expect(c.cri.runtimes).toEqual({
      fast: {
        runtime_type: 'io.containerd.runc.v2',
        options: { BinaryName: '/usr/sbin/runc', Root: '/run/fast-runc', SystemdCgroup: true },
        pod_annotations: [], container_annotations: [], privileged_without_host_devices: false, base_runtime_spec: '',
      },
      plain: { runtime_type: 'io.containerd.runc.v2', options: {}, pod_annotations: [], container_annotations: [], privileged_without_host_devices: false, base_runtime_spec: '' },
    });
    expect(c.cni).toEqual({ bin_dirs: ['/usr/lib/cni'], conf_dir: '/tmp/cni', max_conf_num: 3 });
    expect(c.registry.config_path).toBe('/etc/berth/certs.d');
  });

  it('refuses a missing file that was named', () => {
    const path = join(dir, 'nope.toml');
    const err = errorOf(() => loadConfig(path));
    expect(err.kind).toBe('InvalidArgument');
    expect(err.message).toBe(`config ${path}: cannot read: ENOENT`);
  });
});

describe('config errors name the key path', () => {
  const parse = (text: string) => errorOf(() => parseConfig(text, '/x.toml')).message;

  it('unknown top-level key', () => {
    expect(parse('roots = "/a"')).toBe('config /x.toml: roots: unknown key');
  });

  it('unknown nested key', () => {
    expect(parse('[cri.runtimes.runc.options]\nBinaryNam = "runc"')).toBe(
      'config /x.toml: cri.runtimes.runc.options.BinaryNam: unknown key',
    );
  });

  it('wrong type', () => {
    expect(parse('[cri.runtimes.runc.options]\nBinaryName = 5')).toBe(
      'config /x.toml: cri.runtimes.runc.options.BinaryName: expected string, got number',
    );
    expect(parse('[cni]\nbin_dirs = "/usr/lib/cni"')).toBe('config /x.toml: cni.bin_dirs: expected array, got string');
    expect(parse('cri = 1')).toBe('config /x.toml: cri: expected table, got number');
    expect(parse('[cri]\ndisable_hugetlb_controller = "no"')).toBe('config /x.toml: cri.disable_hugetlb_controller: expected boolean, got string');
  });

  it('wrong element type in an array', () => {
    expect(parse('[cni]\nbin_dirs = ["/a", 2]')).toBe('config /x.toml: cni.bin_dirs[1]: expected string, got number');
  });

  it('bad values', () => {
    expect(parse('log_level = "loud"')).toBe(
      'config /x.toml: log_level: expected one of "trace", "debug", "info", "warn", "error", got "loud"',
    );
    expect(parse('root = "var/lib/berth"')).toBe('config /x.toml: root: must be an absolute path');
    expect(parse('[cri]\nstream_server_port = "99999"')).toMatch(/^config \/x.toml: cri.stream_server_port: /);
    expect(parse('[cri.runtimes.runc]\nruntime_type = "runc"')).toMatch(
      /^config \/x.toml: cri.runtimes.runc.runtime_type: must look like io.containerd/,
    );
  });

  it('refuses SELinux', () => {
    expect(parse('[cri]\nenable_selinux = true')).toBe(
      'config /x.toml: cri.enable_selinux: SELinux is not supported by berth; set it to false',
    );
  });

  it('default_runtime must name a runtime', () => {
    expect(parse('[cri]\ndefault_runtime = "kata"')).toBe(
      'config /x.toml: cri.default_runtime: names runtime "kata", which is not in [cri.runtimes] (have: runc)',
    );
    // Naming runtimes replaces the default table, so "runc" is then gone too.
    expect(parse('[cri.runtimes.other]')).toMatch(/cri.default_runtime: names runtime "runc", .*\(have: other\)/);
  });

  it('reports every problem at once', () => {
    expect(parse('log_level = 1\n[cni]\nmax_conf_num = "x"')).toBe(
      'config /x.toml: log_level: expected one of "trace", "debug", "info", "warn", "error", got 1; cni.max_conf_num: expected number, got string',
    );
  });

  it('TOML syntax errors carry the line', () => {
    expect(parse('root = "/a"\nstate = \n')).toMatch(/^config \/x.toml: line 2, column \d+: /);
  });
});

describe('applyFlags', () => {
  it('flags override the file', () => {
    const file = parseConfig('root = "/from/file"\nlog_level = "warn"\naddress = "/file.sock"', 'f.toml');
    const c = applyFlags(file, { root: '/from/flag', logLevel: 'debug', state: '/st' });
    expect(c.root).toBe('/from/flag');
    expect(c.state).toBe('/st');
    expect(c.log_level).toBe('debug');
    expect(c.address).toBe('/file.sock');
    expect(file.root).toBe('/from/file');
  });

  it('checks flag values too', () => {
    expect(errorOf(() => applyFlags(defaultConfig(), { root: 'rel' })).message).toBe(
      'config <flags>: root: must be an absolute path',
    );
    expect(errorOf(() => applyFlags(defaultConfig(), { logLevel: 'chatty' })).message).toMatch(/^config <flags>: log_level: /);
  });
});
