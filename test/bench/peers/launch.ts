// What starting a peer daemon is, whichever daemon: its dirs and config file written, the process
// started (undone by a teardown when it does not come up), and the Peer handle over it. Each peer
// module says only what differs: its config text, its command line and how it imports images.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shimsOf } from '../procs';
import type { Peer, PeerName, PeerOptions } from './peer';
import { DaemonProcess } from './daemon_process';
import type { DaemonCommand } from './spawn';
import { teardownPeer } from './teardown';

export interface PeerLaunch {
  name: PeerName;
  opts: PeerOptions;
  /** The daemon's config file, written before it starts. */
  configPath: string;
  configText: string;
  command: DaemonCommand;
  importImage(archive: string): Promise<void>;
}

/** The registry hosts dir ([registry] config_path) inside a peer's dir. */
export const certsDirOf = (dir: string): string => join(dir, 'certs.d');

export async function launchPeer(launch: PeerLaunch): Promise<Peer> {
  const { name, opts, command } = launch;
  const { dir } = opts;
  const { socket } = command;
  const certsDir = certsDirOf(dir);
  const podLogDir = join(dir, 'pod-logs');
  mkdirSync(certsDir, { recursive: true });
  mkdirSync(podLogDir, { recursive: true });
  writeFileSync(launch.configPath, launch.configText);
  let daemon: DaemonProcess;
  try {
    daemon = await DaemonProcess.start(command);
  } catch (err) {
    await teardownPeer({ name, daemon: undefined, dir, socket }).catch(() => undefined);
    throw err;
  }
  return {
    name,
    get pid() {
      return daemon.pid;
    },
    socket,
    dir,
    get cri() {
      return daemon.cri;
    },
    certsDir,
    podLogDir,
    cgroupParent: opts.cgroupParent,
    importImage: (archive) => launch.importImage(archive),
    shims: () => shimsOf(dir, socket),
    restart: (signal, recovered) => daemon.restart(signal, recovered),
    stop: () => teardownPeer({ name, daemon: daemon.ref, dir, socket, cri: daemon.cri }),
  };
}
