// CNI shapes: network configuration lists (what we read from conf_dir) and results (what plugins
// print), as in the CNI spec 1.0 (0.3.x/0.4.0 results have the same shape; older ones are converted).

/** One plugin's configuration object; `type` names the binary, other keys belong to the plugin. */
export interface PluginConf {
  type: string;
  /** Runtime capabilities the plugin accepts in `runtimeConfig` (e.g. { portMappings: true }). */
  capabilities?: Record<string, boolean>;
  [key: string]: unknown;
}

/** A network: plugins run in order on ADD, in reverse on DEL. */
export interface NetworkConfigList {
  name: string;
  cniVersion: string;
  disableCheck: boolean;
  plugins: PluginConf[];
  /** Where it came from: a file path, or "builtin" for the loopback network. */
  source: string;
}

export interface CniInterface {
  name: string;
  mac?: string;
  /** The netns path for interfaces inside the pod; absent for host-side ones (veth, bridge). */
  sandbox?: string;
}

export interface CniIPConfig {
  /** CIDR notation, e.g. "10.22.0.5/24". */
  address: string;
  gateway?: string;
  /** Index into `interfaces`. */
  interface?: number;
}

export interface CniRoute {
  dst: string;
  gw?: string;
}

export interface CniDNS {
  nameservers?: string[];
  domain?: string;
  search?: string[];
  options?: string[];
}

/** A plugin's ADD result, normalized. `raw` is the JSON as printed, passed on as prevResult. */
export interface CniResult {
  cniVersion: string;
  interfaces: CniInterface[];
  ips: CniIPConfig[];
  routes: CniRoute[];
  dns: CniDNS;
  raw: Record<string, unknown>;
}

/** The error object a failing plugin prints on stdout (CNI spec "Error"). */
export interface CniPluginError {
  cniVersion?: string;
  code: number;
  msg: string;
  details?: string;
}

/** What one exec of the chain needs besides the config (libcni's RuntimeConf). */
export interface RuntimeConf {
  containerId: string;
  /** The netns path; "" on DEL when the namespace is already gone. */
  netns: string;
  ifName: string;
  /** CNI_ARGS pairs, joined as K=V;K=V. */
  args: Array<[string, string]>;
  /** Capability name -> value; a plugin gets only the ones it declares in `capabilities`. */
  capabilityArgs: Record<string, unknown>;
}

/** containerd's port mapping capability entry (protocol lower-case). */
export interface PortMapping {
  hostPort: number;
  containerPort: number;
  protocol: 'tcp' | 'udp' | 'sctp';
  hostIP?: string;
}

/** The bandwidth capability (bits per second and bits of burst). */
export interface BandwidthLimits {
  ingressRate?: number;
  ingressBurst?: number;
  egressRate?: number;
  egressBurst?: number;
}

/** The dns capability. */
export interface DnsCapability {
  servers?: string[];
  searches?: string[];
  options?: string[];
}
