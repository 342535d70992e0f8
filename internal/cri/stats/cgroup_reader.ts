// The reader for a host's cgroup version.
import type { CgroupLayout } from './cgroup_layout';
import type { CgroupReader } from './cgroup_sample';
import { cgroupV1Reader } from './cgroup_v1';
import { cgroupV2Reader } from './cgroup_v2';

export function cgroupReaderFor(layout: CgroupLayout): CgroupReader {
  return layout.version === 2 ? cgroupV2Reader(layout.root) : cgroupV1Reader(layout.controllers);
}
