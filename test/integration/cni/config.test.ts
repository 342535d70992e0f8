// Loading network configs from conf_dir, as go-cni does: lexical order, .conf as a one-plugin list,
// max_conf_num, and "not ready" while there is none.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadNetworks, NETWORK_NOT_READY_REASON } from '../../../internal/cni/config';
import { buildPluginConfig } from '../../../internal/cni/chain';
import { CniManager } from '../../../internal/cni/pod_network';
import { kindOf } from '../../../internal/errdefs/errors';

describe('CNI network config', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-cniconf-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const manager = (confDir: string) => new CniManager({ confDir, binDirs: ['/usr/lib/cni'], cacheDir: join(dir, 'cache') });

  test('no config: not ready, and setup refuses with FailedPrecondition', async () => {
    for (const confDir of [join(dir, 'absent'), dir]) {
      const m = manager(confDir);
      expect(m.hasConfig()).toBe(false);
      expect(m.status()).toMatchObject({ ready: false, reason: NETWORK_NOT_READY_REASON });
      expect(m.status().message).toContain(confDir);
    }
    writeFileSync(join(dir, 'README.txt'), 'not a config');
    const err = await manager(dir)
      .setupPodNetwork({ id: 'p1', netnsPath: '/proc/self/ns/net', podName: 'a', podNamespace: 'b', podUid: 'c' })
      .catch((e: unknown) => e);
    expect(kindOf(err)).toBe('FailedPrecondition');
    expect((err as Error).message).toContain('cni plugin not initialized');
  });

  test('files load in lexical order; a .conf becomes a one-plugin list; max_conf_num bounds them', () => {
    writeFileSync(join(dir, '20-b.conflist'), JSON.stringify({ cniVersion: '0.4.0', name: 'net-b', plugins: [{ type: 'bridge' }, { type: 'portmap', capabilities: { portMappings: true } }] }));
    writeFileSync(join(dir, '10-a.conf'), JSON.stringify({ cniVersion: '1.0.0', name: 'net-a', type: 'ptp' }));
    writeFileSync(join(dir, '30-c.json'), JSON.stringify({ name: 'net-c', type: 'macvlan' }));
    writeFileSync(join(dir, '00-ignored.txt'), '{');

    const [first] = loadNetworks(dir);
    expect(first).toMatchObject({ name: 'net-a', cniVersion: '1.0.0', plugins: [{ type: 'ptp' }], source: join(dir, '10-a.conf') });
    expect(loadNetworks(dir, 2).map((n) => n.name)).toEqual(['net-a', 'net-b']);
    const all = loadNetworks(dir, 0);
    expect(all.map((n) => n.name)).toEqual(['net-a', 'net-b', 'net-c']);
    expect(all[1]!.plugins.map((p) => p.type)).toEqual(['bridge', 'portmap']);
    expect(all[2]!.cniVersion).toBe('0.1.0'); // absent version: the spec's oldest
    expect(manager(dir).hasConfig()).toBe(true);
  });

  test('a broken file is an error naming it', () => {
    writeFileSync(join(dir, '10-bad.conflist'), JSON.stringify({ cniVersion: '1.0.0', name: 'bad', plugins: [{ bridge: 'x' }] }));
    expect(() => loadNetworks(dir)).toThrow(/10-bad\.conflist plugins\[0\]: plugin is missing "type"/);
    writeFileSync(join(dir, '10-bad.conflist'), '{ nope');
    expect(() => loadNetworks(dir)).toThrow(/10-bad\.conflist: invalid JSON/);
    expect(manager(dir).status()).toMatchObject({ ready: false, reason: NETWORK_NOT_READY_REASON });
  });

  test('a plugin gets the list name and version, prevResult, and only the capabilities it declares', () => {
    const list = { name: 'net', cniVersion: '1.0.0', disableCheck: false, source: 'x', plugins: [] };
    const rt = { containerId: 'c', netns: '/n', ifName: 'eth0', args: [], capabilityArgs: { portMappings: [{ hostPort: 1 }], bandwidth: { ingressRate: 5 } } };
    const prev = { cniVersion: '1.0.0', ips: [] };
    const withCaps = buildPluginConfig(list, { type: 'portmap', name: 'ignored', capabilities: { portMappings: true, bandwidth: false } }, prev, rt);
    expect(withCaps).toEqual({
      type: 'portmap',
      name: 'net',
      cniVersion: '1.0.0',
      capabilities: { portMappings: true, bandwidth: false },
      prevResult: prev,
      runtimeConfig: { portMappings: [{ hostPort: 1 }] },
    });
    expect(buildPluginConfig(list, { type: 'bridge' }, undefined, rt)).toEqual({ type: 'bridge', name: 'net', cniVersion: '1.0.0' });
  });
});
