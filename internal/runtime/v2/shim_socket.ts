// Where a runc v2 shim listens: containerd-shim-runc-v2's `start` hashes berth's address, the
// namespace and the task's group (its pod's sandbox ID, from the bundle's spec) into a socket path
// under /run/containerd/s (containerd 1.6 runtime/v2/shim/util_unix.go SocketAddress, and
// runc/v2/manager StartShim's grouping). A bundle's `address` file records the same path; this
// finds the shim when that file is gone or damaged.
import { createHash } from 'node:crypto';
import { join } from 'node:path';

/** The spec annotations that put a task in another task's shim, in the order the shim reads them. */
const GROUP_LABELS = ['io.containerd.runc.v2.group', 'io.kubernetes.cri.sandbox-id'] as const;

/** The socket root compiled into containerd-shim-runc-v2 (defaults.DefaultStateDir). */
const SHIM_SOCKET_ROOT = '/run/containerd';

/** The ID of the task whose shim serves a task with `annotations` (its own ID when in no group). */
export function shimGroupOf(id: string, annotations: Readonly<Record<string, unknown>> | undefined): string {
  for (const label of GROUP_LABELS) {
    const group = annotations?.[label];
    if (typeof group === 'string' && group !== '') return group;
  }
  return id;
}

/** The ttRPC address the shim of `group` listens on, as its `start` computes it. */
export function shimSocketAddress(berthAddress: string, namespace: string, group: string): string {
  const digest = createHash('sha256').update(join(berthAddress, namespace, group)).digest('hex');
  return `unix://${join(SHIM_SOCKET_ROOT, 's', digest)}`;
}
