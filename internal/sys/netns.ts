// Network-namespace system calls (netns.c): create a persistent netns bound to a file, remove it,
// and open a TCP connection to the loopback address inside one (what port-forward needs).
import { closeSync } from 'node:fs';
import { Socket } from 'node:net';
import { loadAddon } from './addon';
import { BerthError, alreadyExists, deadlineExceeded, invalidArgument, notFound, permissionDenied, unavailable, internal } from '../errdefs/errors';

interface NetnsAddon {
  createNetns(path: string): Promise<void>;
  removeNetns(path: string): void;
  connectInNetns(path: string, port: number, timeoutMs: number): Promise<number>;
}

const addon = (): NetnsAddon => loadAddon<NetnsAddon>();

/** The errno code ("ENOENT", ...) the addon put on its Error, if any. */
function errnoCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Maps an addon errno error to the BerthError kind a caller can act on. */
function toBerthError(err: unknown, what: string): BerthError {
  const message = `${what}: ${err instanceof Error ? err.message : String(err)}`;
  switch (errnoCode(err)) {
    case 'ENOENT':
      return notFound(message, err);
    case 'EEXIST':
      return alreadyExists(message, err);
    case 'EINVAL':
    case 'ENAMETOOLONG':
    case 'ENOTDIR':
      return invalidArgument(message, err);
    case 'EPERM':
    case 'EACCES':
      return permissionDenied(message, err);
    case 'ECONNREFUSED':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
    case 'ECONNRESET':
      return unavailable(message, err);
    case 'ETIMEDOUT':
      return deadlineExceeded(message, err);
    default:
      return internal(message, err);
  }
}

/**
 * Creates a new, empty network namespace and pins it by bind-mounting it onto `path` (a new file;
 * its directory must exist). Node's own threads never change namespace. On failure nothing is left.
 */
export async function createNetns(path: string): Promise<void> {
  try {
    await addon().createNetns(path);
  } catch (err) {
    throw toBerthError(err, `create netns ${path}`);
  }
}

/** Unmounts and deletes a netns file. Idempotent: a missing or unmounted path is fine. */
export function removeNetns(path: string): void {
  try {
    addon().removeNetns(path);
  } catch (err) {
    throw toBerthError(err, `remove netns ${path}`);
  }
}

export interface ConnectInNetnsOptions {
  /** Bound on the TCP connect; default 10s. */
  timeoutMs?: number;
}

/**
 * Connects to 127.0.0.1:<port> (then [::1]:<port>) inside the netns at `netnsPath` and returns the
 * connection as a net.Socket. The socket keeps the namespace it was created in.
 */
export async function connectInNetns(netnsPath: string, port: number, opts: ConnectInNetnsOptions = {}): Promise<Socket> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw invalidArgument(`connect in netns ${netnsPath}: port ${port} is not in 1-65535`);
  }
  let fd: number;
  try {
    fd = await addon().connectInNetns(netnsPath, port, opts.timeoutMs ?? 10_000);
  } catch (err) {
    throw toBerthError(err, `connect to localhost:${port} in netns ${netnsPath}`);
  }
  try {
    return new Socket({ fd, readable: true, writable: true });
  } catch (err) {
    closeSync(fd); // the fd is ours until a Socket owns it
    throw toBerthError(err, `wrap socket for localhost:${port} in netns ${netnsPath}`);
  }
}
