// berth as a peer: berthd from dist/ (the harness's berthdMain and flags), configured like the containerd
// peer (own CNI conf dir with a distinct bridge/subnet, restrict_oom_score_adj, registry hosts
// dir), images imported with `berthctl images import` (the admin ImportImage RPC).
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../../internal/api/cri';
import { berthdMain } from '../../harness/daemon';
import { Unimplemented } from '../errors';
import { shimsOf } from '../procs';
import type { PeerOptions } from './containerd';
import type { Peer } from './peer';
import { DaemonProcess } from './daemon_process';
import type { DaemonCommand } from './spawn';
import { teardownPeer } from './teardown';

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
config_path = ${JSON.stringify(join(opts.dir, 'certs.d'))}
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
  mkdirSync(join(dir, 'certs.d'), { recursive: true });
  mkdirSync(join(dir, 'pod-logs'), { recursive: true });
  const configPath = join(dir, 'berth.toml');
  writeFileSync(configPath, configToml(opts));
  const socket = join(dir, 'berth.sock');
  // The harness's flags, spawned here in a process group of its own (see spawn.ts).
  const args = [
    berthdMain(),
    '--config', configPath,
    '--root', join(dir, 'root'),
    '--state', join(dir, 'state'),
    '--address', socket,
    '--log-level', 'warn',
  ];
  const command: DaemonCommand = { command: process.execPath, args, socket, logPath: join(dir, 'berthd.log') };
  let daemon: DaemonProcess;
  try {
    daemon = await DaemonProcess.start(command);
  } catch (err) {
    await teardownPeer({ name: 'berth', daemon: undefined, dir, socket }).catch(() => undefined);
    throw err;
  }
  return {
    name: 'berth',
    get pid() {
      return daemon.pid;
    },
    socket,
    dir,
    get cri() {
      return daemon.cri;
    },
    certsDir: join(dir, 'certs.d'),
    podLogDir: join(dir, 'pod-logs'),
    cgroupParent: opts.cgroupParent,
    importImage: (archive) => berthctlImport(socket, archive),
    shims: () => shimsOf(dir, socket),
    restart: (signal, recovered) => daemon.restart(signal, recovered),
    stop: () => teardownPeer({ name: 'berth', daemon: daemon.ref, dir, socket, cri: daemon.cri }),
  };
}
