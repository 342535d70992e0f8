// The spec a workload container starts from: the default, or a copy of its runtime handler's
// base_runtime_spec, adjusted as containerd adjusts it (WithRelativeRoot, WithoutRunMount, the
// read-only cgroup mount the CRI plugin adds) and filled in where the builders expect a value.
import { defaultUnixSpec, type Spec } from '../../oci/spec';
import type { RuntimeOptions } from './types';

export function initialContainerSpec(id: string, runtime: RuntimeOptions): Spec {
  if (runtime.baseSpec === undefined) return defaultUnixSpec(id, runtime.namespace);
  const spec = structuredClone(runtime.baseSpec);
  spec.root = { path: 'rootfs' };
  spec.process ??= { user: { uid: 0, gid: 0 }, cwd: '/' };
  spec.mounts = (spec.mounts ?? []).filter((m) => m.destination !== '/run');
  if (!spec.mounts.some((m) => m.destination === '/sys/fs/cgroup')) {
    spec.mounts.push({ destination: '/sys/fs/cgroup', type: 'cgroup', source: 'cgroup', options: ['nosuid', 'noexec', 'nodev', 'relatime', 'ro'] });
  }
  spec.linux ??= {};
  spec.linux.resources ??= {};
  spec.linux.cgroupsPath = `/${runtime.namespace}/${id}`;
  return spec;
}
