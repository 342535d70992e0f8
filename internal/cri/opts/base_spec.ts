// The spec a workload container starts from: the default, or a copy of its runtime handler's
// base_runtime_spec, adjusted as containerd adjusts it (WithRelativeRoot, WithoutRunMount, the
// read-only cgroup mount the CRI plugin adds) and filled in where the builders expect a value.
import { defaultUnixSpec, type Spec } from '../../oci/spec';
import type { RuntimeOptions } from './types';

export function initialContainerSpec(id: string, runtime: RuntimeOptions): Spec {
  const spec = runtime.baseSpec === undefined ? defaultUnixSpec(id, runtime.namespace) : fromBaseSpec(id, runtime.baseSpec, runtime.namespace);
  // The CRI plugin mounts the cgroup tree read-only into workload containers (WithMounts), never pause.
  if (!spec.mounts!.some((m) => m.destination === '/sys/fs/cgroup')) {
    spec.mounts!.push({ destination: '/sys/fs/cgroup', type: 'cgroup', source: 'cgroup', options: ['nosuid', 'noexec', 'nodev', 'relatime', 'ro'] });
  }
  return spec;
}

function fromBaseSpec(id: string, base: Spec, namespace: string): Spec {
  const spec = structuredClone(base);
  spec.root = { path: 'rootfs' };
  spec.process ??= { user: { uid: 0, gid: 0 }, cwd: '/' };
  spec.mounts = (spec.mounts ?? []).filter((m) => m.destination !== '/run');
  spec.linux ??= {};
  spec.linux.resources ??= {};
  spec.linux.cgroupsPath = `/${namespace}/${id}`;
  return spec;
}
