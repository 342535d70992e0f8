// Starts both peers side by side, each with its own CNI bridge/subnet, cgroup parent and temp dir,
// registering every undo on the run's cleanup stack (LIFO: peer stop, then cgroups, then bridge).
// A peer that cannot start is reported, not fatal: the other one still runs.
import { join } from 'node:path';
import { createCniTestEnv } from '../../harness/cni';
import { PAUSE_IMAGE } from '../../harness/images';
import { removeCgroupTree } from '../cgroups';
import type { CleanupStack } from '../cleanup';
import { cellFromError, type Cell } from '../report';
import { startBerth } from './berth';
import { startContainerd } from './containerd';
import { PEER_NAMES, type Peer, type PeerName, type PeerOptions } from './peer';

const STARTERS: Record<PeerName, (opts: PeerOptions) => Promise<Peer>> = {
  containerd: startContainerd,
  berth: startBerth,
};

export interface StartedPeers {
  peers: Peer[];
  unavailable: Partial<Record<PeerName, Cell>>;
}

export async function startPeers(
  tmpDir: string,
  runId: string,
  cleanup: CleanupStack,
  log: (line: string) => void,
): Promise<StartedPeers> {
  const started: StartedPeers = { peers: [], unavailable: {} };
  for (const name of PEER_NAMES) {
    const cni = createCniTestEnv();
    cleanup.push(`${name} CNI bridge ${cni.bridge}`, () => cni.cleanup());
    const cgroupParent = `/berth-bench-${runId}-${name}`;
    cleanup.push(`${name} cgroups ${cgroupParent}`, () => removeCgroupTree(cgroupParent));
    try {
      const peer = await STARTERS[name]({ dir: join(tmpDir, name), cni, sandboxImage: PAUSE_IMAGE, cgroupParent });
      cleanup.push(`${name} (pid ${peer.pid})`, () => peer.stop());
      started.peers.push(peer);
      log(`${name}: pid ${peer.pid}, socket ${peer.socket}, bridge ${cni.bridge} ${cni.subnet}`);
    } catch (err) {
      started.unavailable[name] = cellFromError(err);
      log(`${name}: did not start: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return started;
}

/** Imports the images pods need (busybox, pause); a peer that cannot is told in the log. */
export async function importBaseImages(peers: readonly Peer[], archives: string[], log: (line: string) => void): Promise<void> {
  for (const peer of peers) {
    for (const archive of archives) {
      try {
        await peer.importImage(archive);
      } catch (err) {
        log(`${peer.name}: import ${archive}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
}
