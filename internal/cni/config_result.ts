// The CNI configuration as `crictl info` shows it (the verbose Status's `cniconfig`): go-cni's
// ConfigResult, field for field, so tools that read containerd's answer read berth's.
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

function netConf(list: NetworkConfigList, plugin: PluginConf): NetConf {
  const ipam = plugin.ipam as { type?: unknown } | undefined;
  const dns = plugin.dns as Record<string, unknown> | undefined;
  return {
    ...(list.cniVersion ? { cniVersion: list.cniVersion } : {}),
    ...(list.name ? { name: list.name } : {}),
    type: plugin.type,
    ...(plugin.capabilities && Object.keys(plugin.capabilities).length > 0 ? { capabilities: plugin.capabilities } : {}),
    ipam: typeof ipam?.type === 'string' && ipam.type !== '' ? { type: ipam.type } : {},
    dns: dns ?? {},
  };
}

/** One network as it runs on `ifName`; a plugin's source is its config with the list's name and version, as libcni passes it. */
export function configResultNetwork(list: NetworkConfigList, ifName: string): ConfigResult['Networks'][number] {
  return {
    Config: {
      Name: list.name,
      CNIVersion: list.cniVersion,
      Plugins: list.plugins.map((p) => ({ Network: netConf(list, p), Source: JSON.stringify({ ...p, cniVersion: list.cniVersion, name: list.name }) })),
      Source: JSON.stringify({ cniVersion: list.cniVersion, name: list.name, plugins: list.plugins }),
    },
    IFName: ifName,
  };
}
