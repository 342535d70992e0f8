// ContainerStatus.user and .resources read from the container's spec as containerd 2.0 reads them:
// the process's uid, gid and additional gids as built (Merge vs Strict), and the limits the spec
// sets (cpu, memory, hugepages, unified, oom_score_adj), empty fields left unset.
import { buildContainerSpec } from '../../../internal/cri/opts/container_spec';
import { containerResourcesOf, containerUserOf } from '../../../internal/cri/opts/spec_status';
import { containerConfig, containerInput, resources } from './fixtures';

describe('containerUserOf', () => {
  it('reports the uid, gid and groups the spec runs with: /etc/group memberships only under Merge', () => {
    const spec = (policy: 'Merge' | 'Strict') =>
      buildContainerSpec(
        containerInput({ containerConfig: containerConfig({}, { run_as_user: { value: '1000' }, supplemental_groups: ['7'], supplemental_groups_policy: policy }) }),
      );
    // alice (1000:1000) is listed in wheel (10) and audio (29) in the fixture /etc/group.
    expect(containerUserOf(spec('Merge'))).toEqual({ linux: { uid: 1000, gid: 1000, supplemental_groups: [7, 10, 29, 1000] } });
    expect(containerUserOf(spec('Strict'))).toEqual({ linux: { uid: 1000, gid: 1000, supplemental_groups: [7, 1000] } });
  });

  it('is empty for a spec without a process', () => {
    expect(containerUserOf({ ociVersion: '1.0.2-dev' })).toEqual({});
  });
});

describe('containerResourcesOf', () => {
  it('reports what the spec sets from the request', () => {
    const res = resources({
      cpu_period: '100000',
      cpu_quota: '50000',
      cpu_shares: '512',
      memory_limit_in_bytes: '67108864',
      oom_score_adj: '500',
      cpuset_cpus: '0',
      cpuset_mems: '0',
      unified: { 'memory.high': '60000000' },
    });
    const spec = buildContainerSpec(containerInput({ containerConfig: containerConfig({}, {}, res) }));
    expect(containerResourcesOf(spec)).toEqual({
      linux: {
        cpu_period: 100000,
        cpu_quota: 50000,
        cpu_shares: 512,
        memory_limit_in_bytes: 67108864,
        // No swap asked for: the spec caps swap at the memory limit, and status says so (as containerd).
        memory_swap_limit_in_bytes: 67108864,
        oom_score_adj: 500,
        cpuset_cpus: '0',
        cpuset_mems: '0',
        unified: { 'memory.high': '60000000' },
      },
    });
  });

  it('maps hugepage limits and swap, and gives only oom_score_adj when the spec has no resources', () => {
    const spec = {
      ociVersion: '1.0.2-dev',
      process: { user: { uid: 0, gid: 0 }, cwd: '/', oomScoreAdj: -10 },
      linux: { resources: { memory: { limit: 1024, swap: 2048 }, hugepageLimits: [{ pageSize: '2MB', limit: 4194304 }] } },
    };
    expect(containerResourcesOf(spec)).toEqual({
      linux: { oom_score_adj: -10, memory_limit_in_bytes: 1024, memory_swap_limit_in_bytes: 2048, hugepage_limits: [{ page_size: '2MB', limit: 4194304 }] },
    });
    expect(containerResourcesOf({ ...spec, linux: {} })).toEqual({ linux: { oom_score_adj: -10 } });
    expect(containerResourcesOf({ ociVersion: '1.0.2-dev' })).toEqual({});
  });
});
