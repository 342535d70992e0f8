// Claiming the daemon's unix socket path. A socket file left by a berthd that died is replaced; a
// socket some live process answers on is refused, so two daemons never share one path (and one
// metadata database behind it).
import { lstatSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { failedPrecondition, invalidArgument, messageOf } from '../../internal/errdefs/errors';
import { unlinkIfPresent } from '../../internal/fs/unlink_if_present';

type Probe = 'live' | 'stale';

function probe(path: string): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const sock = connect(path);
    sock.once('connect', () => {
      sock.destroy();
      resolve('live');
    });
    sock.once('error', (err: NodeJS.ErrnoException) => {
      sock.destroy();
      // ECONNREFUSED: a socket file nobody listens on. ENOENT: it went away meanwhile.
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') resolve('stale');
      else reject(failedPrecondition(`socket ${path}: cannot probe: ${messageOf(err)}`, err));
    });
  });
}

/** Makes `path` free to bind: creates its directory, removes a stale socket, refuses a live one. */
export async function claimSocketPath(path: string): Promise<void> {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(path).isSocket();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    // Created only once we know we will serve, so a refused start leaves nothing behind.
    mkdirSync(dirname(path), { recursive: true, mode: 0o711 });
    return;
  }
  if (!isSocket) throw invalidArgument(`address ${path}: exists and is not a socket; refusing to replace it`);
  if ((await probe(path)) === 'live') {
    throw failedPrecondition(`address ${path}: another server (berthd?) is already serving on this socket`);
  }
  unlinkIfPresent(path);
}

/** The inode of the socket we bound, so stop() removes only our own file. */
export function socketInode(path: string): number | undefined {
  try {
    return lstatSync(path).ino;
  } catch {
    return undefined;
  }
}

export function removeSocketIfOurs(path: string, inode: number | undefined): void {
  if (inode === undefined || socketInode(path) !== inode) return;
  unlinkIfPresent(path);
}
