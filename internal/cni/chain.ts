// One network's plugin chain, as libcni runs it: ADD through the plugins in order, each given the
// previous plugin's result; DEL in reverse order; CHECK (spec >= 0.4.0) in order with the cached result.
import { boundedBy } from '../deadline/bounded';
import { internal } from '../errdefs/errors';
import { execPlugin, type CniCommand } from './exec';
import { parseResult } from './result';
import type { CniResult, NetworkConfigList, PluginConf, RuntimeConf } from './types';

export interface ChainOptions {
  binDirs: string[];
  /** Each plugin's bound. */
  timeoutMs: number;
  /** The caller's deadline (ms since the epoch), which shortens that bound. */
  deadlineMs?: number;
}

/** Compares dotted versions numerically: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The stdin of one plugin: its own config with the list's name and cniVersion, the previous
 * result (when there is one), and runtimeConfig holding only the capabilities it declares.
 */
export function buildPluginConfig(
  list: NetworkConfigList,
  plugin: PluginConf,
  prevResult: Record<string, unknown> | undefined,
  rt: RuntimeConf,
): Record<string, unknown> {
  const conf: Record<string, unknown> = { ...plugin, name: list.name, cniVersion: list.cniVersion };
  if (prevResult !== undefined) conf.prevResult = prevResult;
  const runtimeConfig: Record<string, unknown> = {};
  for (const [capability, enabled] of Object.entries(plugin.capabilities ?? {})) {
    if (enabled && rt.capabilityArgs[capability] !== undefined) runtimeConfig[capability] = rt.capabilityArgs[capability];
  }
  if (Object.keys(runtimeConfig).length > 0) {
    const existing = conf.runtimeConfig;
    conf.runtimeConfig = { ...(typeof existing === 'object' && existing !== null ? existing : {}), ...runtimeConfig };
  }
  return conf;
}

export function joinCniArgs(args: Array<[string, string]>): string {
  return args.map(([k, v]) => `${k}=${v}`).join(';');
}

function run(
  command: CniCommand,
  list: NetworkConfigList,
  plugin: PluginConf,
  stdin: Record<string, unknown>,
  rt: RuntimeConf,
  opts: ChainOptions,
): Promise<Record<string, unknown> | undefined> {
  return execPlugin({
    pluginType: plugin.type,
    networkName: list.name,
    binDirs: opts.binDirs,
    command,
    containerId: rt.containerId,
    netns: rt.netns,
    ifName: rt.ifName,
    cniArgs: joinCniArgs(rt.args),
    stdin,
    timeoutMs: boundedBy(opts.timeoutMs, opts.deadlineMs),
  });
}

/**
 * ADD: runs every plugin in order and returns the last result. On failure the error names the
 * plugin; undoing the partial ADD (DEL) is the caller's job, since the caller owns the whole pod.
 * `progress` gets the result so far after each plugin but the last, for the caller to keep what a
 * DEL after a crash mid-list passes as prevResult (libcni keeps only the final one, so a `firewall`
 * DEL after such a crash found no IPs and left its rules).
 */
export async function addNetworkList(
  list: NetworkConfigList,
  rt: RuntimeConf,
  opts: ChainOptions,
  progress?: (resultSoFar: Record<string, unknown>) => void,
): Promise<CniResult> {
  let prev: Record<string, unknown> | undefined;
  for (const [i, plugin] of list.plugins.entries()) {
    const out = await run('ADD', list, plugin, buildPluginConfig(list, plugin, prev, rt), rt, opts);
    // A plugin that prints nothing passes the previous result on unchanged.
    if (out !== undefined) {
      prev = out;
      if (i < list.plugins.length - 1) progress?.(prev);
    }
  }
  if (prev === undefined) throw internal(`CNI network "${list.name}" ADD for ${rt.containerId}: no plugin returned a result`);
  return parseResult(prev, list.plugins[list.plugins.length - 1]!.type);
}

/**
 * DEL: runs every plugin in reverse order, all of them even when one fails (so whatever can be
 * freed is freed), and throws the first failure at the end. `prevResult` is the cached ADD result,
 * passed for spec >= 0.4.0 as libcni does.
 */
export async function delNetworkList(
  list: NetworkConfigList,
  rt: RuntimeConf,
  prevResult: Record<string, unknown> | undefined,
  opts: ChainOptions,
): Promise<void> {
  const prev = compareVersions(list.cniVersion, '0.4.0') >= 0 ? prevResult : undefined;
  let firstError: unknown;
  for (const plugin of [...list.plugins].reverse()) {
    try {
      await run('DEL', list, plugin, buildPluginConfig(list, plugin, prev, rt), rt, opts);
    } catch (err) {
      firstError ??= err;
    }
  }
  if (firstError !== undefined) throw firstError;
}

/** CHECK: for spec >= 0.4.0 and unless the list disables it; a no-op otherwise. */
export async function checkNetworkList(
  list: NetworkConfigList,
  rt: RuntimeConf,
  prevResult: Record<string, unknown>,
  opts: ChainOptions,
): Promise<void> {
  if (list.disableCheck || compareVersions(list.cniVersion, '0.4.0') < 0) return;
  for (const plugin of list.plugins) {
    await run('CHECK', list, plugin, buildPluginConfig(list, plugin, prevResult, rt), rt, opts);
  }
}
