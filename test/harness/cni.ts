// A per-test CNI setup: its own conf dir, result cache, host-local data dir and a bridge with a
// unique name and subnet, so parallel jest workers (and other suites) never share network state.
// cleanup() deletes the bridge, any veth still enslaved to it, and the temp dirs.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian's containernetworking-plugins installs bridge, host-local, loopback, portmap. */
export const SYSTEM_CNI_BIN_DIR = '/usr/lib/cni';

export interface CniTestEnv {
  root: string;
  confDir: string;
  /** A bin dir of our own for test plugins, searched before the system one. */
  testBinDir: string;
  binDirs: string[];
  cacheDir: string;
  /** host-local's dataDir: one file per allocated IP under <ipamDir>/<networkName>/. */
  ipamDir: string;
  networkName: string;
  bridge: string;
  /** e.g. "10.213.7.0/24" */
  subnet: string;
  /** The first three octets, e.g. "10.213.7" */
  subnetPrefix: string;
  gateway: string;
  /** Rewrites the conflist with the bridge plugin followed by `extraPlugins`. */
  writeConflist(extraPlugins?: Array<Record<string, unknown>>): string;
  /** Writes an executable plugin script into testBinDir. */
  writePlugin(name: string, script: string): string;
  /** IPs host-local currently holds for this network. */
  allocatedIPs(): string[];
  /** Names of the links enslaved to the bridge (the pods' host-side veths). */
  bridgePorts(): string[];
  cleanup(): void;
}

function ip(args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A random 10.<200-250>.<n>.0/24 that no host route overlaps. */
function freeSubnetPrefix(): string {
  const routes = ip(['-4', 'route', 'show', 'table', 'all']);
  for (let attempt = 0; attempt < 100; attempt++) {
    const prefix = `10.${randomInt(200, 251)}.${randomInt(0, 256)}`;
    if (!routes.includes(`${prefix}.`)) return prefix;
  }
  throw new Error('no free 10.200-250.x.0/24 subnet for the test bridge');
}

export function createCniTestEnv(): CniTestEnv {
  const root = mkdtempSync(join(tmpdir(), 'berth-cni-'));
  const confDir = join(root, 'net.d');
  const testBinDir = join(root, 'bin');
  const cacheDir = join(root, 'cache');
  const ipamDir = join(root, 'ipam');
  for (const dir of [confDir, testBinDir, cacheDir, ipamDir]) mkdirSync(dir, { recursive: true });
  const hex = randomBytes(3).toString('hex');
  const bridge = `bt${hex}`; // <= 15 chars (IFNAMSIZ)
  const networkName = `berth-test-${hex}`;
  const subnetPrefix = freeSubnetPrefix();
  const subnet = `${subnetPrefix}.0/24`;
  const gateway = `${subnetPrefix}.1`;

  const bridgePlugin = {
    type: 'bridge',
    bridge,
    isGateway: true,
    ipMasq: false, // no iptables rules to clean up
    ipam: { type: 'host-local', ranges: [[{ subnet, gateway }]], routes: [{ dst: '0.0.0.0/0' }], dataDir: ipamDir },
  };

  const env: CniTestEnv = {
    root,
    confDir,
    testBinDir,
    binDirs: [testBinDir, SYSTEM_CNI_BIN_DIR],
    cacheDir,
    ipamDir,
    networkName,
    bridge,
    subnet,
    subnetPrefix,
    gateway,
    writeConflist(extraPlugins = []) {
      const path = join(confDir, '10-berth-test.conflist');
      writeFileSync(path, JSON.stringify({ cniVersion: '1.0.0', name: networkName, plugins: [bridgePlugin, ...extraPlugins] }, null, 2));
      return path;
    },
    writePlugin(name, script) {
      const path = join(testBinDir, name);
      writeFileSync(path, script);
      chmodSync(path, 0o755);
      return path;
    },
    allocatedIPs() {
      try {
        return readdirSync(join(ipamDir, networkName)).filter((name) => /^\d+\.\d+\.\d+\.\d+$/.test(name));
      } catch {
        return [];
      }
    },
    bridgePorts() {
      try {
        return ip(['-o', 'link', 'show', 'master', bridge])
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => line.split(':')[1]!.trim().split('@')[0]!);
      } catch {
        return []; // no bridge, no ports
      }
    },
    cleanup() {
      for (const port of env.bridgePorts()) {
        try {
          ip(['link', 'del', port]);
        } catch {
          // gone with its netns meanwhile
        }
      }
      try {
        ip(['link', 'del', bridge]);
      } catch {
        // never created (e.g. a test that failed before ADD)
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
  env.writeConflist();
  return env;
}
