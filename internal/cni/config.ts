// Network configuration from conf_dir, as libcni/go-cni load it: files ending in .conflist, .conf or
// .json, in lexical order; a .conf/.json holds one plugin and becomes a one-plugin list; the first
// `maxConfNum` valid files are the pod's networks (eth0, eth1, ...). An invalid file is an error
// naming it, not skipped silently: a typo must not silently change the pod network.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { failedPrecondition, invalidArgument } from '../errdefs/errors';
import type { NetworkConfigList, PluginConf } from './types';

const CONF_EXTENSIONS = new Set(['.conflist', '.conf', '.json']);

/** The reason the CRI Status RPC reports while no network config exists (containerd's wording). */
export const NETWORK_NOT_READY_REASON = 'NetworkPluginNotReady';

/** The loopback network containerd's go-cni runs before the pod network (interface "lo"). */
export function loopbackNetwork(): NetworkConfigList {
  return { name: 'cni-loopback', cniVersion: '1.0.0', disableCheck: false, plugins: [{ type: 'loopback' }], source: 'builtin' };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parsePlugin(value: unknown, where: string): PluginConf {
  if (!isObject(value)) throw invalidArgument(`${where}: a plugin must be a JSON object`);
  if (typeof value.type !== 'string' || value.type === '') throw invalidArgument(`${where}: plugin is missing "type"`);
  if (value.type.includes('/')) throw invalidArgument(`${where}: plugin type ${JSON.stringify(value.type)} must be a bare name`);
  const caps = value.capabilities;
  if (caps !== undefined && !isObject(caps)) throw invalidArgument(`${where}: "capabilities" must be an object`);
  return value as PluginConf;
}

function optionalString(obj: Record<string, unknown>, key: string, where: string): string {
  const value = obj[key];
  if (value === undefined) return '';
  if (typeof value !== 'string') throw invalidArgument(`${where}: "${key}" must be a string`);
  return value;
}

/** Parses one config file's bytes; `path` decides list vs single plugin and names errors. */
export function parseNetworkConfig(text: string, path: string): NetworkConfigList {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw invalidArgument(`CNI config ${path}: invalid JSON: ${(err as Error).message}`);
  }
  if (!isObject(json)) throw invalidArgument(`CNI config ${path}: must be a JSON object`);
  const name = optionalString(json, 'name', `CNI config ${path}`);
  if (name === '') throw invalidArgument(`CNI config ${path}: missing "name"`);
  const cniVersion = optionalString(json, 'cniVersion', `CNI config ${path}`) || '0.1.0';
  if (extname(path) === '.conflist') {
    const plugins = json.plugins;
    if (!Array.isArray(plugins)) throw invalidArgument(`CNI config ${path}: missing "plugins" list`);
    if (plugins.length === 0) throw invalidArgument(`CNI config ${path}: "plugins" is empty`);
    const disableCheck = json.disableCheck;
    if (disableCheck !== undefined && typeof disableCheck !== 'boolean') {
      throw invalidArgument(`CNI config ${path}: "disableCheck" must be a boolean`);
    }
    return {
      name,
      cniVersion,
      disableCheck: disableCheck === true,
      plugins: plugins.map((p, i) => parsePlugin(p, `CNI config ${path} plugins[${i}]`)),
      source: path,
    };
  }
  return { name, cniVersion, disableCheck: false, plugins: [parsePlugin(json, `CNI config ${path}`)], source: path };
}

/** The config files of confDir in load order (empty when the dir does not exist). */
export function listConfigFiles(confDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(confDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw invalidArgument(`CNI conf dir ${confDir}: ${(err as Error).message}`);
  }
  return names
    .filter((name) => CONF_EXTENSIONS.has(extname(name)))
    .sort()
    .map((name) => join(confDir, name))
    .filter((path) => {
      try {
        return statSync(path).isFile();
      } catch {
        return false; // vanished between readdir and stat
      }
    });
}

/**
 * The pod networks from confDir, at most `maxConfNum` (default 1; 0 loads all). FailedPrecondition with
 * NETWORK_NOT_READY_REASON when there is none; InvalidArgument naming the file when one is broken.
 */
export function loadNetworks(confDir: string, maxConfNum = 1): NetworkConfigList[] {
  const networks: NetworkConfigList[] = [];
  for (const path of listConfigFiles(confDir)) {
    if (maxConfNum > 0 && networks.length >= maxConfNum) break;
    networks.push(parseNetworkConfig(readFileSync(path, 'utf8'), path));
  }
  if (networks.length === 0) {
    throw failedPrecondition(`cni plugin not initialized: no network config found in ${confDir}`);
  }
  return networks;
}
