// The stats of containers and pods as the CRI wants them, from their cgroups, their snapshot and
// their network namespace. It keeps the state that spans calls: the previous CPU sample of each
// container and pod (for usage_nano_cores) and the writable-layer figures. It knows nothing of the
// CRI stores: the server says which cgroups, snapshot and process belong to what.
import type { CpuUsage } from '../../api/gen/runtime/v1/CpuUsage';
import type { FilesystemUsage } from '../../api/gen/runtime/v1/FilesystemUsage';
import type { MemoryUsage } from '../../api/gen/runtime/v1/MemoryUsage';
import type { NetworkUsage } from '../../api/gen/runtime/v1/NetworkUsage';
import type { ProcessUsage } from '../../api/gen/runtime/v1/ProcessUsage';
import type { Logger } from '../../log/logger';
import type { Usage } from '../../snapshots/types';
import { nowNs, sumSamples, type CgroupReader, type CgroupSample, type ReadOptions } from './cgroup_sample';
import { CpuRateTracker } from './cpu_rate';
import { pidInNetns, readNetDev, type InterfaceCounters } from './net_dev';
import { toCpuUsage, toFilesystemUsage, toMemoryUsage, toNetworkUsage, toProcessUsage } from './to_cri';
import { WritableLayerCache, type LayerUsage } from './writable_layer';

export interface ContainerTarget {
  id: string;
  /** The container's cgroup relative to the hierarchy root; undefined when it has none (yet). */
  cgroupPath?: string;
  snapshotKey: string;
}

export interface ContainerUsage {
  cpu?: CpuUsage;
  memory?: MemoryUsage;
  writable_layer?: FilesystemUsage;
  /** Processes in the container's cgroup (for the pod's ProcessUsage); undefined when unknown. */
  processCount?: number;
}

export interface PodTarget {
  id: string;
  /** The pod's own cgroup (its cgroup parent), read as a whole when known. */
  cgroupPath?: string;
  /** Without a pod cgroup: the cgroups (pause and containers) whose sum is the pod's. */
  memberCgroupPaths: string[];
  /** The pause process, whose /proc/<pid>/net/dev shows the pod's netns; 0 when unknown. */
  pid: number;
  /** '' for host-network pods: their counters are the node's, not the pod's. */
  netnsPath: string;
}

export interface PodUsage {
  cpu?: CpuUsage;
  memory?: MemoryUsage;
  network?: NetworkUsage;
}

export interface StatsCollectorOptions {
  reader: CgroupReader;
  /** The snapshotter's usage(key). */
  snapshotUsage: (snapshotKey: string) => Promise<Usage>;
  /** Shown as the writable layer's fs_id.mountpoint (the snapshotter's root). */
  snapshotMountpoint: string;
  logger: Logger;
  /** How long a writable-layer figure is served before it is measured again. */
  layerMaxAgeMs?: number;
}

export class StatsCollector {
  private readonly cpu = new CpuRateTracker();
  private readonly layers: WritableLayerCache;

  constructor(private readonly opts: StatsCollectorOptions) {
    this.layers = new WritableLayerCache(opts.snapshotUsage, {
      maxAgeMs: opts.layerMaxAgeMs,
      onError: (key, err) => opts.logger.warn('cannot measure writable layer', { snapshotKey: key, error: err }),
    });
  }

  async container(target: ContainerTarget): Promise<ContainerUsage> {
    const usage: ContainerUsage = {};
    const sample = target.cgroupPath === undefined ? undefined : this.sample(target.cgroupPath, target.id);
    if (sample) {
      Object.assign(usage, this.cpuAndMemory(`container:${target.id}`, sample));
      if (sample.processCount !== undefined) usage.processCount = sample.processCount;
    }
    try {
      const layer = await this.layers.get(target.snapshotKey);
      if (layer) usage.writable_layer = toFilesystemUsage(this.opts.snapshotMountpoint, layer);
    } catch (err) {
      this.opts.logger.warn('cannot measure writable layer', { container: target.id, snapshotKey: target.snapshotKey, error: err });
    }
    return usage;
  }

  pod(target: PodTarget): PodUsage {
    const timestamp = nowNs();
    let sample: CgroupSample | undefined;
    // The pod's process count is its running containers' (the server sums them): none read here.
    const opts: ReadOptions = { countProcesses: false };
    if (target.cgroupPath !== undefined) {
      sample = this.sample(target.cgroupPath, target.id, opts);
    } else {
      const parts = target.memberCgroupPaths.map((p) => this.sample(p, target.id, opts)).filter((s) => s !== undefined);
      sample = sumSamples(parts, timestamp);
    }
    const usage: PodUsage = sample ? this.cpuAndMemory(`pod:${target.id}`, sample) : {};
    const network = this.network(target);
    if (network) usage.network = toNetworkUsage(network.timestamp, network.counters);
    return usage;
  }

  /**
   * A container cgroup's reading as it is, for the CRI metrics: unlike container(), it leaves the
   * CPU rate state alone, so metric scrapes do not shorten the stats RPCs' usage_nano_cores window.
   */
  containerSample(target: Pick<ContainerTarget, 'id' | 'cgroupPath'>): CgroupSample | undefined {
    return target.cgroupPath === undefined ? undefined : this.sample(target.cgroupPath, target.id);
  }

  /** The counters of the pod's network namespace; undefined for host-network pods or a gone pause. */
  network(target: Pick<PodTarget, 'id' | 'pid' | 'netnsPath'>): { timestamp: bigint; counters: InterfaceCounters[] } | undefined {
    if (target.netnsPath === '' || target.pid <= 0 || !pidInNetns(target.pid, target.netnsPath)) return undefined;
    try {
      const timestamp = nowNs();
      const counters = readNetDev(target.pid);
      return counters ? { timestamp, counters } : undefined;
    } catch (err) {
      this.opts.logger.warn('cannot read pod network counters', { sandbox: target.id, pid: target.pid, error: err });
      return undefined;
    }
  }

  processUsage(count: number): ProcessUsage {
    return toProcessUsage(nowNs(), count);
  }

  /**
   * An active snapshot's usage from the writable-layer figures (measured at most once per
   * layerMaxAgeMs, whoever asks: container stats and ImageFsInfo share them); undefined when the
   * snapshot is gone.
   */
  activeSnapshotUsage(snapshotKey: string): Promise<LayerUsage | undefined> {
    return this.layers.get(snapshotKey);
  }

  /** How many CPU points (of containers and pods) and writable-layer figures (of snapshots) it keeps. */
  get kept(): { cpuPoints: number; layerFigures: number } {
    return { cpuPoints: this.cpu.size, layerFigures: this.layers.size };
  }

  /** Forgets what belongs to containers, pods and snapshots no longer in the live sets. */
  retain(live: { containerIds: Iterable<string>; sandboxIds: Iterable<string>; snapshotKeys: Iterable<string> }): void {
    const keys = new Set<string>();
    for (const id of live.containerIds) keys.add(`container:${id}`);
    for (const id of live.sandboxIds) keys.add(`pod:${id}`);
    this.cpu.retain(keys);
    this.layers.retain(new Set(live.snapshotKeys));
  }

  /** A cgroup's sample; a read failure other than a vanished cgroup is logged, not thrown. */
  private sample(cgroupPath: string, owner: string, opts?: ReadOptions): CgroupSample | undefined {
    try {
      return this.opts.reader(cgroupPath, nowNs(), opts);
    } catch (err) {
      this.opts.logger.warn('cannot read cgroup stats', { id: owner, cgroupPath, error: err });
      return undefined;
    }
  }

  private cpuAndMemory(key: string, sample: CgroupSample): Pick<PodUsage, 'cpu' | 'memory'> {
    const usage: Pick<PodUsage, 'cpu' | 'memory'> = {};
    if (sample.cpuUsageNs !== undefined) {
      const nanoCores = this.cpu.nanoCores(key, { usageNs: sample.cpuUsageNs, timestamp: sample.timestamp });
      usage.cpu = toCpuUsage(sample.timestamp, sample.cpuUsageNs, nanoCores);
    }
    if (sample.memory) usage.memory = toMemoryUsage(sample.timestamp, sample.memory);
    return usage;
  }
}
