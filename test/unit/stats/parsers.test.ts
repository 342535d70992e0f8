// The pure parts of stats: cgroup path resolution (both runc drivers), mountinfo, /proc/net/dev and
// memory.stat parsing, working set, sums, and the CRI shapes built from them.
import { parseCgroupLayout } from '../../../internal/cri/stats/cgroup_layout';
import { expandSlice, resolveCgroupParent, resolveCgroupsPath } from '../../../internal/cri/stats/cgroup_path';
import { parseKeyedValues } from '../../../internal/cri/stats/cgroup_files';
import { sumSamples, workingSet } from '../../../internal/cri/stats/cgroup_sample';
import { parseNetDev } from '../../../internal/cri/stats/net_dev';
import { toMemoryUsage, toNetworkUsage } from '../../../internal/cri/stats/to_cri';
import { kindOf } from '../../../internal/errdefs/errors';
import { thrownBy } from '../../harness/thrown';

describe('cgroup paths', () => {
  test('cgroupfs paths are used as they are, normalised', () => {
    expect(resolveCgroupsPath('/k8s.io/abc', false)).toBe('/k8s.io/abc');
    expect(resolveCgroupsPath('kubepods//pod1/abc/', false)).toBe('/kubepods/pod1/abc');
    expect(resolveCgroupParent('/kubepods/besteffort/pod1', false)).toBe('/kubepods/besteffort/pod1');
  });

  test('systemd slices expand as systemd does', () => {
    expect(expandSlice('kubepods-besteffort-pod1.slice')).toBe('/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod1.slice');
    expect(expandSlice('system.slice')).toBe('/system.slice');
    expect(expandSlice('-.slice')).toBe('/');
    for (const bad of ['a--b.slice', '-a.slice', 'a.scope', 'a/b.slice']) expect(kindOf(thrownBy(() => expandSlice(bad)))).toBe('InvalidArgument');
  });

  test('systemd cgroupsPath "slice:prefix:name" is a scope under the slice (system.slice by default)', () => {
    expect(resolveCgroupsPath('kubepods-burstable-pod1.slice:berth:abc', true)).toBe(
      '/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1.slice/berth-abc.scope',
    );
    expect(resolveCgroupsPath(':berth:abc', true)).toBe('/system.slice/berth-abc.scope');
    expect(resolveCgroupsPath('a.slice:berth:b.slice', true)).toBe('/a.slice/b.slice');
    expect(kindOf(thrownBy(() => resolveCgroupsPath('/k8s.io/abc', true)))).toBe('InvalidArgument');
    // kubelet's systemd parent: a slice name, or a path ending in one.
    expect(resolveCgroupParent('kubepods-pod1.slice', true)).toBe('/kubepods.slice/kubepods-pod1.slice');
    expect(resolveCgroupParent('/kubepods.slice/kubepods-pod1.slice', true)).toBe('/kubepods.slice/kubepods-pod1.slice');
  });
});

describe('cgroup layout from mountinfo', () => {
  test('v1 hybrid: controllers by super options, joined mounts, unified not counted as v2', () => {
    const mountinfo = [
      '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
      '32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct',
      '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
      '40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd',
      '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
    ].join('\n');
    const layout = parseCgroupLayout(mountinfo);
    expect(layout.version).toBe(1);
    if (layout.version !== 1) return;
    expect(layout.controllers.get('cpuacct')).toBe('/sys/fs/cgroup/cpu,cpuacct');
    expect(layout.controllers.get('cpu')).toBe('/sys/fs/cgroup/cpu,cpuacct');
    expect(layout.controllers.get('memory')).toBe('/sys/fs/cgroup/memory');
    expect(layout.controllers.has('xattr')).toBe(false);
    expect(layout.controllers.has('name=systemd')).toBe(false);
  });

  test('v2: /sys/fs/cgroup is cgroup2', () => {
    const layout = parseCgroupLayout('30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n');
    expect(layout).toEqual({ version: 2, root: '/sys/fs/cgroup' });
  });
});

describe('file parsers', () => {
  test('memory.stat style keyed values', () => {
    const m = parseKeyedValues('cache 4096\ntotal_inactive_file 8192\nhierarchical_memory_limit 9223372036854771712\nbad x\n');
    expect(m.get('total_inactive_file')).toBe(8192n);
    expect(m.get('hierarchical_memory_limit')).toBe(9223372036854771712n);
    expect(m.has('bad')).toBe(false);
  });

  test('/proc/net/dev', () => {
    const text = `Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo:    1000      10    0    0    0     0          0         0     1000      10    0    0    0     0       0          0
  eth0: 18446744073709551615 5 2 0 0 0 0 0 7000 7 3 0 0 0 0 0
`;
    expect(parseNetDev(text)).toEqual([
      { name: 'lo', rxBytes: 1000n, rxErrors: 0n, txBytes: 1000n, txErrors: 0n },
      { name: 'eth0', rxBytes: 18446744073709551615n, rxErrors: 2n, txBytes: 7000n, txErrors: 3n },
    ]);
    const usage = toNetworkUsage(5n, parseNetDev(text));
    expect(usage.default_interface).toEqual({ name: 'eth0', rx_bytes: { value: '18446744073709551615' }, rx_errors: { value: '2' }, tx_bytes: { value: '7000' }, tx_errors: { value: '3' } });
    expect(usage.interfaces!.map((i) => i.name)).toEqual(['eth0']);
    expect(toNetworkUsage(5n, parseNetDev(text).slice(0, 1)).default_interface).toBeUndefined();
  });
});

describe('memory figures', () => {
  test('working set is usage minus inactive file, never below zero', () => {
    expect(workingSet(100n, 30n)).toBe(70n);
    expect(workingSet(100n, 100n)).toBe(0n);
    expect(workingSet(100n, 130n)).toBe(0n);
    expect(workingSet(100n, undefined)).toBe(100n);
  });

  test('available bytes only with a limit: limit minus working set', () => {
    const m = { usageBytes: 100n, workingSetBytes: 70n, rssBytes: 50n, pageFaults: 3n, majorPageFaults: 1n };
    expect(toMemoryUsage(1n, m).available_bytes).toEqual({ value: '0' }); // no limit: 0, as containerd
    expect(toMemoryUsage(1n, { ...m, limitBytes: 1000n }).available_bytes).toEqual({ value: '930' });
    expect(toMemoryUsage(1n, { ...m, limitBytes: 50n }).available_bytes).toEqual({ value: '0' });
    expect(toMemoryUsage(1n, m)).toMatchObject({ timestamp: '1', working_set_bytes: { value: '70' }, usage_bytes: { value: '100' }, rss_bytes: { value: '50' }, page_faults: { value: '3' }, major_page_faults: { value: '1' } });
  });

  test('sums add what each part has, drop limits', () => {
    const a = { timestamp: 1n, cpuUsageNs: 10n, processCount: 2, memory: { usageBytes: 5n, workingSetBytes: 4n, rssBytes: 3n, pageFaults: 2n, majorPageFaults: 1n, limitBytes: 99n } };
    const b = { timestamp: 2n, cpuUsageNs: 5n };
    const total = sumSamples([a, b], 7n)!;
    expect(total).toEqual({ timestamp: 7n, cpuUsageNs: 15n, processCount: 2, memory: { usageBytes: 5n, workingSetBytes: 4n, rssBytes: 3n, pageFaults: 2n, majorPageFaults: 1n } });
    expect(sumSamples([], 7n)).toBeUndefined();
  });
});
