// berth as a peer: berthd from dist/ (the harness's berthdMain and flags), configured like the containerd
// peer (own CNI conf dir with a distinct bridge/subnet, restrict_oom_score_adj, registry hosts
// dir), images imported with `berthctl images import` (the admin ImportImage RPC).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../../internal/api/cri';
import { berthdMain } from '../../harness/daemon';
import { Unimplemented } from '../errors';
import { certsDirOf, launchPeer } from './launch';
import type { Peer, PeerOptions } from './peer';

function configToml(opts: PeerOptions): string {
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

const berthctlMain = (): string => join(repoRoot(), 'dist', 'cmd', 'berthctl', 'main.js');

async function berthctlImport(socket: string, archive: string): Promise<void> {
  try {
    await promisify(execFile)(process.execPath, [berthctlMain(), '--address', socket, 'images', 'import', archive], {
      timeout: 600_000,
      maxBuffer: 16 << 20,
    });
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? '');
    if (stderr.includes('UNIMPLEMENTED')) throw new Unimplemented('berthctl images import', 'ImportImage');
    throw new Error(`berthctl images import ${archive}: ${stderr.trim() || String(err)}`);
  }
}

export async function startBerth(opts: PeerOptions): Promise<Peer> {
  const { dir } = opts;
  const configPath = join(dir, 'berth.toml');
  const socket = join(dir, 'berth.sock');
  // bin/berthd as a user runs it (with the Node flags `make build` gives it), the harness's
  // flags, spawned here in a process group of its own (see spawn.ts).
  berthdMain(); // fails early and clearly when dist/ was never built
  const args = [
    '--config', configPath,
    '--root', join(dir, 'root'),
    '--state', join(dir, 'state'),
    '--address', socket,
    '--log-level', 'warn',
  ];
  return launchPeer({
    name: 'berth',
    opts,
    configPath,
    configText: configToml(opts),
    command: { command: join(repoRoot(), 'bin', 'berthd'), args, socket, logPath: join(dir, 'berthd.log') },
    importImage: (archive) => berthctlImport(socket, archive),
  });
}
