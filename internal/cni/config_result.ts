// The CNI configuration as `crictl info` shows it (the verbose Status's `cniconfig`): go-cni's
// ConfigResult's fields, so tools that read containerd's answer read berth's. The sources are the
// configs as berth parsed them, and its loopback network is the 1.0.0 one it runs.
import type { NetworkConfigList, PluginConf } from './types';

export interface ConfigResult {
  PluginDirs: string[];
  PluginConfDir: string;
  PluginMaxConfNum: number;
  Prefix: string;
  Networks: Array<{ Config: NetworkConfList; IFName: string }>;
}

interface NetworkConfList {
  Name: string;
  CNIVersion: string;
  Plugins: Array<{ Network: NetConf; Source: string }>;
  Source: string;
}

/** libcni's types.NetConf as Go marshals it: empty fields left out, `dns` always there. */
interface NetConf {
  cniVersion?: string;
  name?: string;
  type?: string;
  capabilities?: Record<string, boolean>;
  ipam: { type?: string };
  dns: Record<string, unknown>;
}

/** A plugin's own config as libcni parses it: its own name and version only (a list's plugins have none). */
function netConf(plugin: PluginConf): NetConf {
  const ipam = plugin.ipam as { type?: unknown } | undefined;
  const dns = plugin.dns as Record<string, unknown> | undefined;
  return {
    ...(typeof plugin.cniVersion === 'string' && plugin.cniVersion ? { cniVersion: plugin.cniVersion } : {}),
    ...(typeof plugin.name === 'string' && plugin.name ? { name: plugin.name } : {}),
    type: plugin.type,
    ...(plugin.capabilities && Object.keys(plugin.capabilities).length > 0 ? { capabilities: plugin.capabilities } : {}),
    ipam: typeof ipam?.type === 'string' && ipam.type !== '' ? { type: ipam.type } : {},
    dns: dns ?? {},
  };
}

/** One network as it runs on `ifName`; sources are the configs as parsed (re-serialized, not the file's bytes). */
export function configResultNetwork(list: NetworkConfigList, ifName: string): ConfigResult['Networks'][number] {
  return {
    Config: {
      Name: list.name,
      CNIVersion: list.cniVersion,
      Plugins: list.plugins.map((p) => ({ Network: netConf(p), Source: JSON.stringify(p) })),
      Source: JSON.stringify({ cniVersion: list.cniVersion, name: list.name, plugins: list.plugins }),
    },
    IFName: ifName,
  };
}
