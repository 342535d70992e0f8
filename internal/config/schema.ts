// berthd's configuration: the shape of berth.toml, its defaults and its checks, in one zod schema.
// Keys follow containerd's config.toml (and its CRI plugin section) so an operator who knows one
// knows the other; every table is strict, so a misspelt key is an error instead of a silent default.
// zod's v3 API (shipped inside zod 4): it loads 10 modules where the v4 API loads 95, which cost
// berthd ~45 ms and ~9 MiB of resident memory at every start. (Its .default() parses the default
// through the inner schema, which is what fills nested tables' defaults.)
import { isAbsolute } from 'node:path';
import { z } from 'zod/v3';
import { parseListenAddress } from '../metrics/address';

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;

const absolutePath = z.string().refine((p) => isAbsolute(p), { message: 'must be an absolute path' });

// The shim binary comes from this name (io.containerd.runc.v2 -> containerd-shim-runc-v2 on PATH),
// or is an absolute path to a shim binary, used as is.
const runtimeType = z
  .string()
  .regex(/^(io\.containerd\.[a-z0-9_]+\.v[0-9]+|\/.+)$/, {
    message: 'must look like io.containerd.<name>.v<N> or be an absolute path to a shim',
  });

// [cri.runtimes.<handler>.options]: the runc shim's options (containerd.runc.v1.Options).
const runcOptions = z.strictObject({
  BinaryName: z.string().optional(),
  Root: absolutePath.optional(),
  SystemdCgroup: z.boolean().optional(),
});

const runtime = z.strictObject({
  runtime_type: runtimeType.default('io.containerd.runc.v2'),
  options: runcOptions.default({}),
  // As containerd's: glob patterns (path.Match) of pod / container annotations passed into the OCI
  // spec annotations of this handler's sandboxes and containers.
  pod_annotations: z.array(z.string()).default([]),
  container_annotations: z.array(z.string()).default([]),
  // Privileged containers of this handler get no host devices (VM runtimes, kata-style).
  privileged_without_host_devices: z.boolean().default(false),
  // A JSON OCI spec this handler's containers start from instead of the default; read at start.
  base_runtime_spec: z.union([z.literal(''), absolutePath]).default(''),
});

const port = z
  .string()
  .regex(/^[0-9]+$/, { message: 'must be a port number as a string' })
  .refine((p) => Number(p) <= 65535, { message: 'must be a port number between 0 and 65535' });

const cri = z
  .strictObject({
    sandbox_image: z.string().min(1).default('registry.k8s.io/pause:3.9'),
    default_runtime: z.string().min(1).default('runc'),
    restrict_oom_score_adj: z.boolean().default(false),
    max_container_log_line_size: z.number().int().min(-1).default(16384),
    // As containerd: kubelet sends a limit-0 hugepage entry for every page size, and runc fails on
    // them where the hugetlb controller is absent, so hugepage limits are ignored unless enabled.
    disable_hugetlb_controller: z.boolean().default(true),
    // As containerd: true leaves an image's VOLUME paths in the container's rootfs (no volume dirs).
    ignore_image_defined_volumes: z.boolean().default(false),
    // As containerd 2.0: pods not on the host network get net.ipv4.ip_unprivileged_port_start=0 /
    // net.ipv4.ping_group_range="0 2147483647" in their netns unless they set those sysctls.
    enable_unprivileged_ports: z.boolean().default(true),
    enable_unprivileged_icmp: z.boolean().default(true),
    // Accepted as a key for containerd compatibility; berth has no SELinux labelling.
    enable_selinux: z
      .boolean()
      .refine((on) => !on, { message: 'SELinux is not supported by berth; set it to false' })
      .default(false),
    // CDI devices (CRI cdi_devices, cdi.k8s.io/* annotations), resolved from these spec dirs (later
    // dirs win), as containerd 2.0's defaults.
    enable_cdi: z.boolean().default(true),
    cdi_spec_dirs: z.array(absolutePath).default(['/etc/cdi', '/var/run/cdi']),
    stream_server_address: z.string().min(1).default('127.0.0.1'),
    stream_server_port: port.default('0'),
    runtimes: z
      .record(z.string().min(1), runtime)
      .default({ runc: { runtime_type: 'io.containerd.runc.v2', options: {} } }),
  })
  .superRefine((c, ctx) => {
    if (!Object.hasOwn(c.runtimes, c.default_runtime)) {
      ctx.addIssue({
        code: 'custom',
        path: ['default_runtime'],
        message: `names runtime "${c.default_runtime}", which is not in [cri.runtimes] (have: ${Object.keys(c.runtimes).join(', ') || 'none'})`,
      });
    }
  });

const cni = z.strictObject({
  bin_dirs: z.array(absolutePath).min(1).default(['/usr/lib/cni', '/opt/cni/bin']),
  conf_dir: absolutePath.default('/etc/cni/net.d'),
  max_conf_num: z.number().int().min(0).default(1),
});

const registry = z.strictObject({
  // Directory of hosts.toml files, as containerd's; "" means none.
  config_path: z.string().default(''),
});

const metrics = z.strictObject({
  // As containerd's [metrics] address: "host:port" of the Prometheus /metrics endpoint; "" = none
  // (no TCP listener, prom-client not even loaded).
  address: z
    .string()
    .refine((a) => a === '' || parseListenAddress(a) !== undefined, {
      message: 'must be "host:port" (e.g. "127.0.0.1:1338"), or "" for no metrics endpoint',
    })
    .default(''),
});

const grpc = z.strictObject({
  // How long a CRI connection may go without berthd pinging it; 0 = never. Node's HTTP/2 stops
  // reading a connection it sent GOAWAY for flooding (rapid reset) without ever closing it, so a gone
  // client's socket stayed open: the unanswered ping is what closes it. grpc-go's server pings after 2 h.
  keepalive_time_ms: z.number().int().min(0).default(60_000),
  // How long berthd waits for the ping's answer before it closes the connection (grpc-go: 20 s).
  keepalive_timeout_ms: z.number().int().positive().default(20_000),
});

export const berthConfigSchema = z.strictObject({
  root: absolutePath.default('/var/lib/berth'),
  state: absolutePath.default('/run/berth'),
  address: absolutePath.default('/run/berth/berth.sock'),
  log_level: z.enum(LOG_LEVELS).default('info'),
  cri: cri.default({}),
  cni: cni.default({}),
  registry: registry.default({}),
  metrics: metrics.default({}),
  grpc: grpc.default({}),
});

export type BerthConfig = z.output<typeof berthConfigSchema>;
export type CriConfig = BerthConfig['cri'];
export type RuntimeHandlerConfig = CriConfig['runtimes'][string];
export type CniConfig = BerthConfig['cni'];
