// Parsing plugin results into one shape and reading the pod's addresses out of them, as go-cni's
// GetCNIResultFromResults and the CRI plugin's selectPodIPs do.
import { isIP } from 'node:net';
import { clipText } from '../errdefs/clip_text';
import { internal } from '../errdefs/errors';
import type { CniDNS, CniIPConfig, CniInterface, CniResult, CniRoute } from './types';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strList = (v: unknown): string[] | undefined =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;

/** `address` if it is an IP/prefix (libcni decodes it with net.ParseCIDR and refuses the result otherwise). */
function cidr(address: string, plugin: string, what: string): string {
  const slash = address.lastIndexOf('/');
  const ip = address.slice(0, slash);
  const family = slash < 0 ? 0 : isIP(ip);
  const prefix = address.slice(slash + 1);
  if (family === 0 || !/^\d{1,3}$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128)) {
    throw internal(`CNI plugin "${plugin}" result: ${what} ${JSON.stringify(clipText(address, 100))} is not an IP address with a prefix length`);
  }
  return address;
}

/** `address` if it is an IP address (or absent). */
function ipOrAbsent(address: string | undefined, plugin: string, what: string): string | undefined {
  if (address !== undefined && isIP(address) === 0) {
    throw internal(`CNI plugin "${plugin}" result: ${what} ${JSON.stringify(clipText(address, 100))} is not an IP address`);
  }
  return address;
}

function parseRoutes(value: unknown, plugin: string): CniRoute[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).flatMap((r) => {
    const dst = str(r.dst);
    if (!dst) return [];
    const gw = ipOrAbsent(str(r.gw), plugin, 'route gateway');
    return [{ dst: cidr(dst, plugin, 'route destination'), ...(gw ? { gw } : {}) }];
  });
}

function parseDns(value: unknown): CniDNS {
  if (!isObject(value)) return {};
  const dns: CniDNS = {};
  const nameservers = strList(value.nameservers);
  const domain = str(value.domain);
  const search = strList(value.search);
  const options = strList(value.options);
  if (nameservers?.length) dns.nameservers = nameservers;
  if (domain) dns.domain = domain;
  if (search?.length) dns.search = search;
  if (options?.length) dns.options = options;
  return dns;
}

/** 0.1.0/0.2.0 results carry ip4/ip6 objects and no interfaces. */
function fromLegacy(json: Json, version: string, plugin: string): CniResult {
  const ips: CniIPConfig[] = [];
  const routes: CniRoute[] = [];
  for (const key of ['ip4', 'ip6']) {
    const ip = json[key];
    if (!isObject(ip) || !str(ip.ip)) continue;
    const gateway = ipOrAbsent(str(ip.gateway), plugin, 'gateway');
    ips.push({ address: cidr(ip.ip as string, plugin, 'address'), ...(gateway ? { gateway } : {}) });
    routes.push(...parseRoutes(ip.routes, plugin));
  }
  return { cniVersion: version, interfaces: [], ips, routes, dns: parseDns(json.dns), raw: json };
}

/** Normalizes a plugin's ADD output; Internal naming the plugin when it is not a result. */
export function parseResult(json: Json, plugin: string): CniResult {
  const version = str(json.cniVersion) ?? '0.1.0';
  if (version.startsWith('0.1.') || version.startsWith('0.2.')) return fromLegacy(json, version, plugin);
  const interfaces: CniInterface[] = [];
  if (json.interfaces !== undefined && !Array.isArray(json.interfaces)) {
    throw internal(`CNI plugin "${plugin}" result: "interfaces" is not a list`);
  }
  for (const iface of (json.interfaces as unknown[] | undefined) ?? []) {
    if (!isObject(iface) || !str(iface.name)) throw internal(`CNI plugin "${plugin}" result: interface without a name`);
    const mac = str(iface.mac);
    const sandbox = str(iface.sandbox);
    interfaces.push({ name: iface.name as string, ...(mac ? { mac } : {}), ...(sandbox ? { sandbox } : {}) });
  }
  const ips: CniIPConfig[] = [];
  for (const ip of Array.isArray(json.ips) ? json.ips : []) {
    if (!isObject(ip) || !str(ip.address)) throw internal(`CNI plugin "${plugin}" result: ip without an address`);
    const gateway = ipOrAbsent(str(ip.gateway), plugin, 'gateway');
    const index = typeof ip.interface === 'number' ? ip.interface : undefined;
    const address = cidr(ip.address as string, plugin, 'address');
    ips.push({ address, ...(gateway ? { gateway } : {}), ...(index !== undefined ? { interface: index } : {}) });
  }
  return { cniVersion: version, interfaces, ips, routes: parseRoutes(json.routes, plugin), dns: parseDns(json.dns), raw: json };
}

/** One address of a pod interface, split from its CIDR. */
export interface IPConfig {
  ip: string;
  prefixLength: number;
  gateway?: string;
}

/** An interface inside the pod with the addresses assigned to it. */
export interface InterfaceConfig {
  ipConfigs: IPConfig[];
  mac?: string;
  sandbox?: string;
}

function splitCidr(address: string): IPConfig {
  const slash = address.lastIndexOf('/');
  if (slash < 0) return { ip: address, prefixLength: address.includes(':') ? 128 : 32 };
  return { ip: address.slice(0, slash), prefixLength: Number(address.slice(slash + 1)) };
}

/**
 * The pod-side interfaces (those with a sandbox) of a result, by name, each with the IPs that
 * point at it. An IP without an interface index (legacy results, ipam-only chains) is credited to
 * `ifName` (the caller passes the pod's default interface, as go-cni does).
 */
export function podInterfaces(result: CniResult, ifName: string): Record<string, InterfaceConfig> {
  const byName: Record<string, InterfaceConfig> = {};
  for (const iface of result.interfaces) {
    if (!iface.sandbox) continue;
    byName[iface.name] = {
      ipConfigs: [],
      ...(iface.mac ? { mac: iface.mac } : {}),
      sandbox: iface.sandbox,
    };
  }
  for (const ip of result.ips) {
    let name = ifName;
    if (ip.interface !== undefined) {
      const iface = result.interfaces[ip.interface];
      if (!iface?.sandbox) continue; // a host-side address (e.g. the bridge's gateway)
      name = iface.name;
    }
    byName[name] ??= { ipConfigs: [] };
    byName[name].ipConfigs.push({ ...splitCidr(ip.address), ...(ip.gateway ? { gateway: ip.gateway } : {}) });
  }
  return byName;
}

/** The pod's IPs: the first IPv4 first (the CRI's primary IP), then the others in result order. */
export function selectPodIPs(ipConfigs: IPConfig[]): string[] {
  const ips = ipConfigs.map((c) => c.ip);
  const firstV4 = ips.findIndex((ip) => !ip.includes(':'));
  if (firstV4 <= 0) return ips;
  return [ips[firstV4]!, ...ips.slice(0, firstV4), ...ips.slice(firstV4 + 1)];
}
