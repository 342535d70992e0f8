// The pod network, as containerd's CRI plugin drives go-cni: the loopback network ("lo") and then
// the networks of conf_dir (eth0, eth1, ...) attached to a pod's netns; detached in reverse order.
import { isNetnsMounted } from '../netns/netns';
import { invalidArgument, messageOf, notFound, wrap } from '../errdefs/errors';
import { silentLogger, type Logger } from '../log/logger';
import { metrics, stopwatch, type CniOperation } from '../metrics';
import { ResultCache } from './cache';
import { capabilityArgs, type PodCapabilities } from './capabilities';
import { addNetworkList, checkNetworkList, delNetworkList, type ChainOptions } from './chain';
import { NETWORK_NOT_READY_REASON, loadNetworks, loopbackNetwork } from './config';
import { configResultNetwork, type ConfigResult } from './config_result';
import { endLeftoverPlugins } from './leftover_plugins';
import { podInterfaces, selectPodIPs, type InterfaceConfig } from './result';
import type { CniDNS, CniResult, CniRoute, NetworkConfigList, RuntimeConf } from './types';

export interface CniManagerOptions {
  /** Where network configs live (containerd: /etc/cni/net.d). */
  confDir: string;
  /** Where plugin binaries live, searched in order (containerd: /opt/cni/bin). */
  binDirs: string[];
  /** Result cache root (libcni: /var/lib/cni); keep it under berth's state dir. */
  cacheDir: string;
  /** How many conf_dir files become networks; default 1, 0 for all. */
  maxConfNum?: number;
  /** Bound on each plugin exec; default 60s. */
  pluginTimeoutMs?: number;
  logger?: Logger;
}

/** Who the pod is: the parameters of every plugin exec, and its capability args. */
export interface PodNetworkRequest extends PodCapabilities {
  /** The sandbox ID (CNI_CONTAINERID, K8S_POD_INFRA_CONTAINER_ID). */
  id: string;
  /** The pod's netns path; on teardown a vanished netns is fine. */
  netnsPath: string;
  podName: string;
  podNamespace: string;
  podUid: string;
  /** When the caller needs the setup done by (ms since the epoch); teardowns have none. */
  deadlineMs?: number;
}

/** What setup learned about the pod's network, merged over all its networks. */
export interface PodNetworkResult {
  /** Pod-side interfaces by name ("lo", "eth0", ...). */
  interfaces: Record<string, InterfaceConfig>;
  routes: CniRoute[];
  dns: CniDNS[];
  /** Each network's normalized result, by network name. */
  networks: Record<string, CniResult>;
}

export interface PodNetworkSetup {
  /** The pod's IPs from eth0: the first IPv4 first, then the others (CRI PodIP + additional IPs). */
  ips: string[];
  result: PodNetworkResult;
}

export interface NetworkStatus {
  ready: boolean;
  reason?: string;
  message?: string;
}

/** The interface the default (first) pod network creates; its IPs are the pod's IPs. */
export const DEFAULT_IFNAME = 'eth0';

interface Attachment {
  list: NetworkConfigList;
  ifName: string;
}

/** Runs a setup or teardown, reporting its time and result to the metrics. */
async function measured<T>(op: CniOperation, run: () => Promise<T>): Promise<T> {
  const elapsed = stopwatch();
  try {
    const result = await run();
    metrics().cniOperation(op, true, elapsed());
    return result;
  } catch (err) {
    metrics().cniOperation(op, false, elapsed());
    throw err;
  }
}

export class CniManager {
  private readonly cache: ResultCache;
  private readonly chain: ChainOptions;
  private readonly log: Logger;

  constructor(private readonly opts: CniManagerOptions) {
    if (opts.binDirs.length === 0) throw invalidArgument('CNI: bin_dirs is empty');
    this.cache = new ResultCache(opts.cacheDir);
    this.chain = { binDirs: opts.binDirs, timeoutMs: opts.pluginTimeoutMs ?? 60_000 };
    this.log = opts.logger ?? silentLogger;
  }

  /** True when conf_dir holds a valid network config (the CRI Status NetworkReady condition). */
  hasConfig(): boolean {
    return this.status().ready;
  }

  /** Throws why the pod network cannot be set up (no or invalid config), as Status reports it. */
  assertReady(): void {
    loadNetworks(this.opts.confDir, this.opts.maxConfNum ?? 1);
  }

  status(): NetworkStatus {
    try {
      loadNetworks(this.opts.confDir, this.opts.maxConfNum ?? 1);
      return { ready: true };
    } catch (err) {
      return { ready: false, reason: NETWORK_NOT_READY_REASON, message: `Network plugin returns error: ${messageOf(err)}` };
    }
  }

  /**
   * The configuration a pod gets now, as go-cni describes it (`crictl info`'s cniconfig); loopback
   * alone when conf_dir holds none or a broken one (Status says why).
   */
  describe(): ConfigResult {
    let networks: Attachment[];
    try {
      networks = this.attachments();
    } catch {
      networks = [{ list: loopbackNetwork(), ifName: 'lo' }];
    }
    return {
      PluginDirs: this.opts.binDirs,
      PluginConfDir: this.opts.confDir,
      PluginMaxConfNum: this.opts.maxConfNum ?? 1,
      Prefix: 'eth',
      Networks: networks.map((a) => configResultNetwork(a.list, a.ifName)),
    };
  }

  /** The networks a pod gets, loopback first; reads conf_dir now, so config changes apply to new pods. */
  private attachments(): Attachment[] {
    const networks = loadNetworks(this.opts.confDir, this.opts.maxConfNum ?? 1);
    return [{ list: loopbackNetwork(), ifName: 'lo' }, ...networks.map((list, i) => ({ list, ifName: `eth${i}` }))];
  }

  private runtimeConf(req: PodNetworkRequest, netns: string, ifName: string): RuntimeConf {
    return {
      containerId: req.id,
      netns,
      ifName,
      args: [
        ['IgnoreUnknown', '1'],
        ['K8S_POD_NAMESPACE', req.podNamespace],
        ['K8S_POD_NAME', req.podName],
        ['K8S_POD_INFRA_CONTAINER_ID', req.id],
        ['K8S_POD_UID', req.podUid],
      ],
      capabilityArgs: capabilityArgs(req),
    };
  }

  /**
   * Attaches the pod's netns to loopback and every configured network, side by side as go-cni
   * does (each network's plugins still run in chain order). When any attachment fails, all of
   * them are detached again (DEL, reverse order) before the error is thrown, so a failed setup
   * leaves no IP, veth or cache entry behind.
   */
  async setupPodNetwork(req: PodNetworkRequest): Promise<PodNetworkSetup> {
    return measured('setup', () => this.setup(req));
  }

  private async setup(req: PodNetworkRequest): Promise<PodNetworkSetup> {
    const attachments = this.attachments();
    if (!isNetnsMounted(req.netnsPath)) throw invalidArgument(`setup network for pod ${req.id}: ${req.netnsPath} is not a network namespace`);
    const outcomes = await Promise.allSettled(attachments.map((att) => this.attach(req, att)));
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) {
      this.log.warn('pod network setup failed, detaching', { podSandboxId: req.id, error: failed.reason });
      await this.detach(req, [...attachments].reverse()).catch((undoErr: unknown) =>
        this.log.error('cannot undo failed pod network setup', { podSandboxId: req.id, error: undoErr }),
      );
      throw wrap(failed.reason, `setup network for pod ${req.id}`);
    }
    // Merged in attachment order (loopback first), whatever order the plugins finished in.
    const result: PodNetworkResult = { interfaces: {}, routes: [], dns: [], networks: {} };
    outcomes.forEach((o, i) => {
      const res = (o as PromiseFulfilledResult<CniResult>).value;
      const att = attachments[i]!;
      // An IP whose result names no interface (a 0.1/0.2 result) is the default interface's,
      // whichever network gave it, as go-cni credits it: added to eth0's, not in place of them.
      for (const [name, iface] of Object.entries(podInterfaces(res, DEFAULT_IFNAME))) {
        const seen = result.interfaces[name];
        result.interfaces[name] = seen ? { ...seen, ...iface, ipConfigs: [...seen.ipConfigs, ...iface.ipConfigs] } : iface;
      }
      result.routes.push(...res.routes);
      if (Object.keys(res.dns).length > 0) result.dns.push(res.dns);
      result.networks[att.list.name] = res;
    });
    const ips = selectPodIPs(result.interfaces[DEFAULT_IFNAME]?.ipConfigs ?? []);
    this.log.info('pod network set up', { podSandboxId: req.id, ips });
    return { ips, result };
  }

  /** ADD of one network list, its result cached for DEL and CHECK. */
  private async attach(req: PodNetworkRequest, att: Attachment): Promise<CniResult> {
    const rt = this.runtimeConf(req, req.netnsPath, att.ifName);
    const save = (result: Record<string, unknown>) =>
      this.cache.save({
        kind: 'cniCacheV1',
        containerId: req.id,
        ifName: att.ifName,
        networkName: att.list.name,
        netns: req.netnsPath,
        config: att.list,
        cniArgs: rt.args,
        capabilityArgs: rt.capabilityArgs,
        result,
      });
    // The undo of a failed setup (detach) is not the caller's to bound: it runs to its own end.
    // The result so far is cached after each plugin, so that a DEL after a crash mid-list (or the
    // undo of a plugin's failure) tells the plugins that ran what they attached.
    const res = await addNetworkList(att.list, rt, { ...this.chain, deadlineMs: req.deadlineMs }, save);
    save(res.raw);
    return res;
  }

  /**
   * Detaches the pod from every network it was attached to (the cached attachments, which also
   * survive a conf_dir change) and from today's configured ones, in reverse order. Idempotent, and
   * fine with a netns that is already gone (CNI_NETNS is then empty, as the spec allows for DEL).
   */
  async teardownPodNetwork(req: PodNetworkRequest): Promise<void> {
    return measured('teardown', () => this.teardown(req));
  }

  private async teardown(req: PodNetworkRequest): Promise<void> {
    const byKey = new Map<string, Attachment>();
    let configured: Attachment[] = [];
    try {
      configured = this.attachments();
    } catch (err) {
      // No config today: the cache alone says what to detach.
      this.log.debug('no CNI config for teardown, using the result cache', { podSandboxId: req.id, error: err });
      configured = [{ list: loopbackNetwork(), ifName: 'lo' }];
    }
    for (const att of configured) byKey.set(`${att.list.name}/${att.ifName}`, att);
    for (const entry of this.cache.list(req.id)) byKey.set(`${entry.networkName}/${entry.ifName}`, { list: entry.config, ifName: entry.ifName });
    // Loopback was attached first, so it goes last; the rest in reverse of their ifName order.
    const order = [...byKey.values()].sort((a, b) => (a.ifName === 'lo' ? 1 : b.ifName === 'lo' ? -1 : b.ifName.localeCompare(a.ifName)));
    await this.detach(req, order);
  }

  /** DEL each attachment in the order given; all are tried, the first failure is thrown. */
  private async detach(req: PodNetworkRequest, attachments: Attachment[]): Promise<void> {
    const netns = isNetnsMounted(req.netnsPath) ? req.netnsPath : '';
    let firstError: unknown;
    for (const att of attachments) {
      const cached = this.cache.load(att.list.name, req.id, att.ifName);
      const rt = this.runtimeConf(req, netns, att.ifName);
      // Port mappings etc. as they were at ADD time, unless the caller gives them now.
      if (cached) rt.capabilityArgs = { ...cached.capabilityArgs, ...rt.capabilityArgs };
      try {
        await delNetworkList(att.list, rt, cached?.result, this.chain);
        this.cache.remove(att.list.name, req.id, att.ifName);
      } catch (err) {
        firstError ??= err;
      }
    }
    if (firstError !== undefined) throw wrap(firstError, `teardown network for pod ${req.id}`);
  }

  /**
   * Ends the plugin execs a berthd before this one left running for pod `id` (leftover_plugins.ts);
   * recovery calls it before it detaches a pod whose ADD may have been in flight.
   */
  async endLeftoverPlugins(id: string): Promise<void> {
    const ended = await endLeftoverPlugins(id);
    if (ended.length > 0) this.log.warn('ended CNI plugins an earlier berthd left running for the pod', { podSandboxId: id, pids: ended });
  }

  /**
   * The pods the result cache holds attachments of that are not in `known` (pods whose record is
   * gone while their network stayed attached), each as the request teardownPodNetwork needs: who
   * the pod is from the ADD's CNI args, its netns as the ADD recorded it ('' when not recorded).
   */
  cachedPodsExcept(known: ReadonlySet<string>): PodNetworkRequest[] {
    const byPod = new Map<string, PodNetworkRequest>();
    for (const entry of this.cache.listUnknown(known)) {
      const arg = (key: string) => (entry.cniArgs ?? []).find(([k]) => k === key)?.[1] ?? '';
      const seen = byPod.get(entry.containerId);
      if (seen && (seen.netnsPath !== '' || !entry.netns)) continue;
      byPod.set(entry.containerId, {
        id: entry.containerId,
        netnsPath: entry.netns ?? '',
        podName: arg('K8S_POD_NAME'),
        podNamespace: arg('K8S_POD_NAMESPACE'),
        podUid: arg('K8S_POD_UID'),
      });
    }
    return [...byPod.values()];
  }

  /** Whether an ADD of the pod's is in the result cache with no DEL since: it may still hold an IP. */
  attachedToPod(id: string): boolean {
    return this.cache.has(id);
  }

  /** CHECK every attached network against its cached result (spec >= 0.4.0). */
  async checkPodNetwork(req: PodNetworkRequest): Promise<void> {
    for (const att of this.attachments()) {
      const cached = this.cache.load(att.list.name, req.id, att.ifName);
      if (!cached) throw notFound(`check network for pod ${req.id}: network "${att.list.name}" was never attached`);
      const rt = this.runtimeConf(req, req.netnsPath, att.ifName);
      rt.capabilityArgs = { ...cached.capabilityArgs, ...rt.capabilityArgs };
      try {
        await checkNetworkList(cached.config, rt, cached.result, this.chain);
      } catch (err) {
        throw wrap(err, `check network for pod ${req.id}`);
      }
    }
  }
}
