// Registry host resolution, as containerd's `config_path` (certs.d) does: for a reference's domain,
// <config_path>/<domain>/hosts.toml (or `host_port_` for domains with a port, or `_default`) lists
// mirrors under [host."<url>"] with their capabilities, tried in file order, then `server` (or the
// domain's default endpoint) last. docker.io's default endpoint is registry-1.docker.io; localhost
// registries default to plain http.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { invalidArgument } from '../../errdefs/errors';

export type Capability = 'pull' | 'resolve' | 'push';

export interface RegistryHost {
  scheme: 'http' | 'https';
  /** host[:port] to connect to. */
  host: string;
  /** Path prefix of the API, "/v2" unless override_path. */
  path: string;
  capabilities: ReadonlySet<Capability>;
  skipVerify: boolean;
  /** PEM CA files to trust (in addition to the system ones). */
  caFiles: string[];
  headers: Record<string, string>;
  /** A [host] entry of hosts.toml, as opposed to the domain's upstream (`server` or the default). */
  mirror: boolean;
}

const ALL: readonly Capability[] = ['pull', 'resolve', 'push'];

export function isLocalhost(domain: string): boolean {
  const host = domain.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** The endpoint used when no hosts.toml names one. */
export function defaultHost(domain: string): RegistryHost {
  const host = domain === 'docker.io' ? 'registry-1.docker.io' : domain;
  return {
    scheme: isLocalhost(domain) ? 'http' : 'https',
    host,
    path: '/v2',
    capabilities: new Set(ALL),
    skipVerify: false,
    caFiles: [],
    headers: {},
    mirror: false,
  };
}

/** Directories containerd looks in for a domain's hosts.toml, most specific first. */
function hostDirs(configPath: string, domain: string): string[] {
  const dirs: string[] = [];
  const colon = domain.lastIndexOf(':');
  if (colon > 0 && !domain.endsWith(']')) dirs.push(join(configPath, `${domain.slice(0, colon)}_${domain.slice(colon + 1)}_`));
  dirs.push(join(configPath, domain), join(configPath, '_default'));
  return dirs;
}

type Table = Record<string, unknown>;

function parseHostEntry(url: string, entry: Table, file: string, mirror: boolean): RegistryHost {
  const bad = (why: string) => invalidArgument(`${file}: host ${JSON.stringify(url)}: ${why}`);
  let u: URL;
  try {
    u = new URL(/^[a-z]+:\/\//i.test(url) ? url : `https://${url}`);
  } catch {
    throw bad('not a URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw bad(`unsupported scheme ${u.protocol}`);
  const caps = entry.capabilities ?? ALL;
  if (!Array.isArray(caps) || !caps.every((c): c is Capability => ALL.includes(c as Capability))) {
    throw bad(`capabilities must be a list of ${ALL.join(', ')}`);
  }
  let path = u.pathname.replace(/\/+$/, '');
  if (entry.override_path !== true && !path.endsWith('/v2')) path += '/v2';
  const ca = entry.ca === undefined ? [] : Array.isArray(entry.ca) ? entry.ca : [entry.ca];
  const headers: Record<string, string> = {};
  if (entry.header !== undefined && typeof entry.header === 'object' && entry.header !== null) {
    for (const [k, v] of Object.entries(entry.header as Table)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return {
    scheme: u.protocol === 'http:' ? 'http' : 'https',
    host: u.host,
    path,
    capabilities: new Set(caps),
    skipVerify: entry.skip_verify === true,
    caFiles: ca.map(String),
    headers,
    mirror,
  };
}

/** Parses one hosts.toml for `domain`. */
export function parseHostsToml(text: string, domain: string, file: string): RegistryHost[] {
  let doc: Table;
  try {
    doc = parseToml(text) as Table;
  } catch (err) {
    throw invalidArgument(`${file}: ${(err as Error).message}`);
  }
  const hosts: RegistryHost[] = [];
  const table = (doc.host ?? {}) as Table;
  for (const [url, entry] of Object.entries(table)) hosts.push(parseHostEntry(url, entry as Table, file, true));
  // `server` is the upstream, tried last; its top-level options (skip_verify, ca, ...) apply to it.
  const upstream = { ...doc, capabilities: undefined };
  hosts.push(typeof doc.server === 'string' ? parseHostEntry(doc.server, upstream, file, false) : defaultHost(domain));
  return hosts;
}

/** The hosts to try for `domain`, in order. */
export function resolveHosts(configPath: string | undefined, domain: string): RegistryHost[] {
  if (configPath) {
    for (const dir of hostDirs(configPath, domain)) {
      const file = join(dir, 'hosts.toml');
      if (existsSync(file)) return parseHostsToml(readFileSync(file, 'utf8'), domain, file);
    }
  }
  return [defaultHost(domain)];
}
