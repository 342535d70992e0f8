// The comparison peer: a private containerd 1.6 (Debian's /usr/bin/containerd) with its own temp
// root, state, sockets, opt dir, CNI conf dir and registry hosts dir, never the system daemon.
// Images go in with `ctr images import` (which unpacks into overlayfs) into the k8s.io namespace.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CniTestEnv } from '../../harness/cni';
import { launchPeer } from './launch';
import type { Peer, PeerOptions } from './peer';

export const CONTAINERD_BINARY = '/usr/bin/containerd';
export const CTR_BINARY = '/usr/bin/ctr';
const CRI_NAMESPACE = 'k8s.io';

function configToml(dir: string, cni: CniTestEnv, sandboxImage: string): string {
  const p = (sub: string) => JSON.stringify(join(dir, sub));
  return `version = 2
root = ${p('root')}
state = ${p('state')}
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.tracing.processor.v1.otlp"]
[grpc]
  address = ${p('containerd.sock')}
[ttrpc]
  address = ${p('containerd.sock.ttrpc')}
[debug]
  address = ""
[metrics]
  address = ""
[plugins."io.containerd.internal.v1.opt"]
  path = ${p('opt')}
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = ${JSON.stringify(sandboxImage)}
  restrict_oom_score_adj = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = ${JSON.stringify(cni.confDir)}
  [plugins."io.containerd.grpc.v1.cri".registry]
    config_path = ${p('certs.d')}
`;
}

export async function startContainerd(opts: PeerOptions): Promise<Peer> {
  const { dir } = opts;
  const configPath = join(dir, 'config.toml');
  const socket = join(dir, 'containerd.sock');
  return launchPeer({
    name: 'containerd',
    opts,
    configPath,
    configText: configToml(dir, opts.cni, opts.sandboxImage),
    command: {
      command: CONTAINERD_BINARY,
      args: ['--config', configPath, '--log-level', 'warn'],
      socket,
      logPath: join(dir, 'containerd.log'),
    },
    importImage: async (archive) => {
      await promisify(execFile)(
        CTR_BINARY,
        ['--address', socket, '-n', CRI_NAMESPACE, 'images', 'import', '--snapshotter', 'overlayfs', archive],
        { timeout: 600_000, maxBuffer: 16 << 20 },
      );
    },
  });
}
