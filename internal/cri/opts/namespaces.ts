// Which Linux namespaces a pod's containers share. The pause process holds the pod's network, IPC
// and UTS namespaces (and its PID namespace in POD mode); containers join them through /proc/<pid>/ns.
import type { NamespaceOption__Output } from '../../api/gen/runtime/v1/NamespaceOption';
import type { LinuxNamespace, LinuxNamespaceType, Spec } from '../../oci/spec';

export const nsPath = (pid: number, ns: 'net' | 'ipc' | 'uts' | 'pid') => `/proc/${pid}/ns/${ns}`;

/** Replaces (or adds) the namespace of `type`; `path` undefined means a new namespace. */
export function setNamespace(spec: Spec, type: LinuxNamespaceType, path?: string): void {
  spec.linux ??= {};
  const entry: LinuxNamespace = path === undefined || path === '' ? { type } : { type, path };
  const list = spec.linux.namespaces ?? [];
  const at = list.findIndex((n) => n.type === type);
  if (at < 0) list.push(entry);
  else list[at] = entry;
  spec.linux.namespaces = list;
}

/** Removes the namespace of `type`: the process stays in berthd's (the host's) namespace. */
export function removeNamespace(spec: Spec, type: LinuxNamespaceType): void {
  if (spec.linux?.namespaces === undefined) return;
  spec.linux.namespaces = spec.linux.namespaces.filter((n) => n.type !== type);
}

/**
 * A container's namespaces. NODE network/IPC and a NODE PID mode mean the host's namespace (no
 * entry: runc leaves the process where the shim runs). POD joins the sandbox's; CONTAINER gets its
 * own PID namespace; TARGET joins the PID namespace of `targetPid` (another container).
 */
export function applyContainerNamespaces(spec: Spec, options: NamespaceOption__Output | null | undefined, sandboxPid: number, targetPid: number): void {
  const network = options?.network ?? 'POD';
  const ipc = options?.ipc ?? 'POD';
  const pid = options?.pid ?? 'POD';
  if (network === 'NODE') removeNamespace(spec, 'network');
  else setNamespace(spec, 'network', nsPath(sandboxPid, 'net'));
  if (ipc === 'NODE') removeNamespace(spec, 'ipc');
  else setNamespace(spec, 'ipc', nsPath(sandboxPid, 'ipc'));
  // The UTS namespace follows the pod's: a host-network pod shares the host's hostname.
  if (network === 'NODE') removeNamespace(spec, 'uts');
  else setNamespace(spec, 'uts', nsPath(sandboxPid, 'uts'));
  switch (pid) {
    case 'NODE':
      removeNamespace(spec, 'pid');
      break;
    case 'CONTAINER':
      setNamespace(spec, 'pid');
      break;
    case 'TARGET':
      setNamespace(spec, 'pid', nsPath(targetPid, 'pid'));
      break;
    default:
      setNamespace(spec, 'pid', nsPath(sandboxPid, 'pid'));
  }
}

/**
 * The pause container's namespaces: the pod network namespace (the bind-mounted netns; a fresh one
 * when no path is known yet), or the host's for NODE network (then the host's UTS too); new IPC and
 * PID namespaces unless NODE.
 */
export function applySandboxNamespaces(spec: Spec, options: NamespaceOption__Output | null | undefined, netnsPath: string | undefined): void {
  if (options?.network === 'NODE') {
    removeNamespace(spec, 'network');
    removeNamespace(spec, 'uts');
  } else {
    setNamespace(spec, 'network', netnsPath);
  }
  if (options?.pid === 'NODE') removeNamespace(spec, 'pid');
  if (options?.ipc === 'NODE') removeNamespace(spec, 'ipc');
}
