// What every scenario needs from a daemon under test, so containerd and berth are driven by the
// same CRI client code: its socket and client, where its pods put cgroups and logs, how to import
// an image archive out of band, and which shim processes are its own.
import type { CniTestEnv } from '../../harness/cni';
import type { CriClient } from '../../harness/cri_client';
import type { ProcessRef } from '../procs';
import type { RestartSignal, RestartTiming } from './daemon_process';

export type PeerName = 'containerd' | 'berth';

export const PEER_NAMES: readonly PeerName[] = ['containerd', 'berth'];

/** What the bench gives each peer it starts. */
export interface PeerOptions {
  /** The peer's own dir (created here, removed by stop). */
  dir: string;
  cni: CniTestEnv;
  sandboxImage: string;
  cgroupParent: string;
}

export interface Peer {
  readonly name: PeerName;
  /** The daemon's own PID (not its shims); changes when restart() starts a new process. */
  readonly pid: number;
  readonly socket: string;
  /** The temp dir holding everything the daemon writes (root, state, configs, logs). */
  readonly dir: string;
  /** A client for the daemon serving now (a new one after each restart). */
  readonly cri: CriClient;
  /** Registry hosts.toml directory ([registry] config_path), one subdir per host. */
  readonly certsDir: string;
  /** Parent for pods' log_directory. */
  readonly podLogDir: string;
  /** cgroup_parent for the bench's pods: one tree per peer, removed at the end. */
  readonly cgroupParent: string;
  /** Imports (and unpacks) an image archive through the daemon's own tool; throws Unimplemented. */
  importImage(archive: string): Promise<void>;
  /** The shim processes serving this daemon's pods right now. */
  shims(): ProcessRef[];
  /**
   * Stops the daemon with `signal` (its containers and shims keep running) and starts it again on
   * the same root, state and socket; resolves once it answers Version and `recovered` holds.
   */
  restart(signal: RestartSignal, recovered: (cri: CriClient) => Promise<boolean>): Promise<RestartTiming>;
  /** Removes all pods via CRI, stops the daemon by PID, kills its leftover shims, unmounts, removes dir. */
  stop(): Promise<void>;
}
