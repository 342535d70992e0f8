// Pod network counters read through a process inside a namespace this test creates: bytes moved on
// loopback and on a veth "eth0" show up, eth0 becomes the default interface, loopback is not listed,
// and a process outside the namespace (a reused PID, say) is never read as the pod's.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostCgroupLayout } from '../../../internal/cri/stats/cgroup_layout';
import { cgroupReaderFor } from '../../../internal/cri/stats/cgroup_reader';
import { StatsCollector } from '../../../internal/cri/stats/collector';
import { pidInNetns, readNetDev } from '../../../internal/cri/stats/net_dev';
import { notFound } from '../../../internal/errdefs/errors';
import { silentLogger } from '../../../internal/log/logger';
import { NetNS } from '../../../internal/netns/netns';

const inNetns = (ns: NetNS, cmd: string[]): string =>
  execFileSync('nsenter', [`--net=${ns.path}`, ...cmd], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('network counters (real netns)', () => {
  let dir: string;
  let ns: NetNS;
  let holder: ChildProcess;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-stats-net-'));
    ns = await NetNS.create(join(dir, 'netns'));
    inNetns(ns, ['ip', 'link', 'set', 'lo', 'up']);
    // A process living in the namespace, standing where the pause process is for a pod.
    holder = spawn('nsenter', [`--net=${ns.path}`, 'sleep', '1000'], { stdio: 'ignore' });
    await new Promise<void>((resolve, reject) => {
      holder.once('spawn', resolve);
      holder.once('error', reject);
    });
    // nsenter execs sleep in the same PID once it has joined the namespace.
    while (!pidInNetns(holder.pid!, ns.path)) await new Promise((r) => setTimeout(r, 5));
  });

  afterEach(async () => {
    if (holder.exitCode === null && holder.signalCode === null) {
      const gone = new Promise((r) => holder.once('exit', r));
      holder.kill('SIGKILL');
      await gone;
    }
    ns.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  test('bytes pinged over loopback are counted in the namespace only', () => {
    const before = readNetDev(holder.pid!)!.find((c) => c.name === 'lo')!;
    inNetns(ns, ['/bin/busybox', 'ping', '-c', '3', '-s', '1000', '127.0.0.1']);
    const after = readNetDev(holder.pid!)!.find((c) => c.name === 'lo')!;
    // 3 echo requests + 3 replies of >1000 bytes each, seen both as sent and as received on lo.
    expect(after.rxBytes - before.rxBytes).toBeGreaterThanOrEqual(6000n);
    expect(after.txBytes - before.txBytes).toBeGreaterThanOrEqual(6000n);
    expect(after.rxErrors).toBe(0n);
    expect(readNetDev(holder.pid!)!.map((c) => c.name)).toEqual(['lo']);
  });

  test('pod stats: eth0 is the default interface, lo is left out, the pid must be in the netns', async () => {
    // eth0 as CNI would make it: one end of a veth pair (both ends stay in the test's namespace).
    inNetns(ns, ['ip', 'link', 'add', 'eth0', 'type', 'veth', 'peer', 'name', 'peer0']);
    inNetns(ns, ['ip', 'addr', 'add', '10.251.0.1/24', 'dev', 'eth0']);
    inNetns(ns, ['ip', 'link', 'set', 'peer0', 'up']);
    inNetns(ns, ['ip', 'link', 'set', 'eth0', 'up']);
    // A neighbour nobody answers for, with a fixed MAC: the echo requests leave through eth0 whole.
    inNetns(ns, ['ip', 'neigh', 'add', '10.251.0.2', 'lladdr', '02:00:00:00:00:02', 'dev', 'eth0']);
    try {
      inNetns(ns, ['/bin/busybox', 'ping', '-c', '2', '-W', '1', '-s', '500', '10.251.0.2']);
    } catch {
      // no replies: ping exits 1, which is expected
    }
    const collector = new StatsCollector({
      reader: cgroupReaderFor(hostCgroupLayout()),
      snapshotUsage: async (key) => {
        throw notFound(`snapshot ${key}`);
      },
      snapshotMountpoint: '/x',
      logger: silentLogger,
    });
    const usage = collector.pod({ id: 'pod1', memberCgroupPaths: [], pid: holder.pid!, netnsPath: ns.path });
    const net = usage.network!;
    expect(net.default_interface!.name).toBe('eth0');
    expect(BigInt(String(net.default_interface!.tx_bytes!.value))).toBeGreaterThanOrEqual(1000n);
    expect(net.interfaces!.map((i) => i.name).sort()).toEqual(['eth0', 'peer0']);
    const peer = net.interfaces!.find((i) => i.name === 'peer0')!;
    expect(BigInt(String(peer.rx_bytes!.value))).toBeGreaterThanOrEqual(1000n);
    expect(BigInt(String(net.timestamp))).toBeGreaterThan(0n);

    // The test's own process is not in that namespace: its counters (the host's) are not the pod's.
    expect(collector.pod({ id: 'pod1', memberCgroupPaths: [], pid: process.pid, netnsPath: ns.path }).network).toBeUndefined();
    // Host-network pods have no network stats of their own.
    expect(collector.pod({ id: 'pod1', memberCgroupPaths: [], pid: holder.pid!, netnsPath: '' }).network).toBeUndefined();
  });
});
