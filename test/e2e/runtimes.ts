// The two runtimes a kubelet is pointed at, each started fresh in the run's temp dir with the
// bench's peer plumbing (test/bench/peers): its own CNI bridge and subnet (plus portmap, for
// hostPort), its own cgroup root, the test images imported before the kubelet starts, and a
// teardown (pods via CRI, daemon by PID, leftover shims, mounts) registered on the run's stack.
// berthd is the one compiled beside this runner (dist/cmd/berthd), so `make e2e` tests the tree built.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createCniTestEnv, type CniTestEnv } from '../harness/cni';
import { PAUSE_IMAGE } from '../harness/images';
import { removeCgroupTree } from '../bench/cgroups';
import type { CleanupStack } from '../bench/cleanup';
import { startContainerd } from '../bench/peers/containerd';
import { certsDirOf, launchPeer } from '../bench/peers/launch';
import type { Peer, PeerOptions } from '../bench/peers/peer';

export type RuntimeName = 'berth' | 'containerd';
export const RUNTIME_NAMES: readonly RuntimeName[] = ['berth', 'containerd'];

export interface E2eRuntime {
  name: RuntimeName;
  peer: Peer;
  cni: CniTestEnv;
  cgroupRoot: string;
  /** What kubelet's cadvisor is told is containerd's socket (read-only use). */
  cadvisorContainerdSocket: string;
}

/** dist/cmd/<name>/main.js of the tree this runner was compiled in. */
const compiledMain = (name: 'berthd' | 'berthctl') => join(__dirname, '..', '..', 'cmd', name, 'main.js');

function berthToml(opts: PeerOptions): string {
  return `[cri]
sandbox_image = ${JSON.stringify(opts.sandboxImage)}
restrict_oom_score_adj = true
stream_server_address = "127.0.0.1"
stream_server_port = "0"

[cni]
bin_dirs = ["/usr/lib/cni"]
conf_dir = ${JSON.stringify(opts.cni.confDir)}

[registry]
config_path = ${JSON.stringify(certsDirOf(opts.dir))}
`;
}

function startBerthd(opts: PeerOptions): Promise<Peer> {
  const socket = join(opts.dir, 'berth.sock');
  const configPath = join(opts.dir, 'berth.toml');
  return launchPeer({
    name: 'berth',
    opts,
    configPath,
    configText: berthToml(opts),
    command: {
      command: process.execPath,
      // The Node flags bin/berthd carries (Makefile BERTHD_NODE_FLAGS).
      args: ['--max-semi-space-size=1', '--v8-pool-size=1', compiledMain('berthd'), '--config', configPath, '--root', join(opts.dir, 'root'), '--state', join(opts.dir, 'state'), '--address', socket, '--log-level', 'info'],
      socket,
      logPath: join(opts.dir, 'berthd.log'),
    },
    importImage: async (archive) => {
      await promisify(execFile)(process.execPath, [compiledMain('berthctl'), '--address', socket, 'images', 'import', archive], { timeout: 600_000, maxBuffer: 16 << 20 });
    },
  });
}

export async function startRuntime(name: RuntimeName, runDir: string, runId: string, images: string[], cleanup: CleanupStack): Promise<E2eRuntime> {
  const cni = createCniTestEnv();
  cleanup.push(`${name} CNI bridge ${cni.bridge}`, () => cni.cleanup());
  cni.writeConflist([{ type: 'portmap', capabilities: { portMappings: true } }]);
  const cgroupRoot = `/berth-bench-e2e${runId}-${name}`; // the bench's cgroup sweeper takes /berth-bench-* only
  cleanup.push(`${name} cgroups ${cgroupRoot}`, () => removeCgroupTree(cgroupRoot));
  const opts: PeerOptions = { dir: join(runDir, name), cni, sandboxImage: PAUSE_IMAGE, cgroupParent: cgroupRoot };
  const peer = name === 'berth' ? await startBerthd(opts) : await startContainerd(opts);
  cleanup.push(`${name} (pid ${peer.pid})`, () => peer.stop());
  for (const archive of images) await peer.importImage(archive);
  const cadvisorContainerdSocket = name === 'containerd' ? peer.socket : join(opts.dir, 'no-containerd.sock');
  return { name, peer, cni, cgroupRoot, cadvisorContainerdSocket };
}
