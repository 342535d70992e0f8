// The pod network end to end with the real plugins (loopback, bridge, host-local) on a bridge and
// subnet of this test's own; pods are namespaces this test creates.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CniManager, type PodNetworkRequest } from '../../../internal/cni/pod_network';
import { NetNS } from '../../../internal/netns/netns';
import { kindOf } from '../../../internal/errdefs/errors';
import { createCniTestEnv, type CniTestEnv } from '../../harness/cni';

const inNetns = (ns: NetNS, cmd: string[]): string =>
  execFileSync('nsenter', [`--net=${ns.path}`, ...cmd], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const links = (ns: NetNS): string[] =>
  inNetns(ns, ['ip', '-o', 'link'])
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.split(':')[1]!.trim().split('@')[0]!);

const hostLinkExists = (name: string): boolean => {
  try {
    execFileSync('ip', ['link', 'show', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** A plugin that appends {command, CNI_* env, stdin} to the file named in its config and passes prevResult on. */
const RECORDER = `#!${process.execPath}
const fs = require('fs');
const conf = JSON.parse(fs.readFileSync(0, 'utf8'));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('CNI_')));
fs.appendFileSync(conf.recordTo, JSON.stringify({ command: env.CNI_COMMAND, env, stdin: conf }) + '\\n');
if (env.CNI_COMMAND === 'ADD') process.stdout.write(JSON.stringify(conf.prevResult));
`;

/** A plugin whose ADD fails with a CNI error object; its DEL succeeds (so rollback can run). */
const FAILER = `#!/bin/sh
cat >/dev/null
if [ "$CNI_COMMAND" = "ADD" ]; then
  echo '{"cniVersion":"1.0.0","code":7,"msg":"no ponies left","details":"pony pool exhausted"}'
  exit 1
fi
exit 0
`;

describe('pod network through the CNI chain', () => {
  let env: CniTestEnv;
  let cni: CniManager;
  let pods: NetNS[];
  let seq = 0;

  const newPod = async (): Promise<{ ns: NetNS; req: PodNetworkRequest }> => {
    const ns = await NetNS.create(join(env.root, 'netns'));
    pods.push(ns);
    const id = `pod${++seq}${Date.now().toString(16)}`;
    return { ns, req: { id, netnsPath: ns.path, podName: `name-${id}`, podNamespace: 'berth-test', podUid: `uid-${id}` } };
  };

  const cacheEntries = (): string[] => {
    try {
      return readdirSync(join(env.cacheDir, 'results'));
    } catch {
      return [];
    }
  };

  beforeEach(() => {
    env = createCniTestEnv();
    cni = new CniManager({ confDir: env.confDir, binDirs: env.binDirs, cacheDir: env.cacheDir, pluginTimeoutMs: 30_000 });
    pods = [];
  });

  afterEach(() => {
    for (const ns of pods) ns.remove();
    env.cleanup();
  });

  test('setup gives eth0 an IP on the bridge and brings lo up; teardown frees it all', async () => {
    const { ns, req } = await newPod();
    const { ips, result } = await cni.setupPodNetwork(req);

    expect(ips).toHaveLength(1);
    expect(ips[0]!.startsWith(`${env.subnetPrefix}.`)).toBe(true);
    expect(result.interfaces.eth0?.ipConfigs).toEqual([{ ip: ips[0], prefixLength: 24, gateway: env.gateway }]);
    expect(result.interfaces.lo?.ipConfigs.map((c) => c.ip)).toContain('127.0.0.1');
    expect(inNetns(ns, ['ip', '-o', '-4', 'addr', 'show', 'eth0'])).toContain(`${ips[0]}/24`);
    expect(inNetns(ns, ['ip', '-o', 'link', 'show', 'lo'])).toMatch(/<[^>]*\bUP\b/);
    expect(inNetns(ns, ['busybox', 'ping', '-c1', '-W5', '127.0.0.1'])).toContain('1 packets received');
    expect(hostLinkExists(env.bridge)).toBe(true);
    expect(env.allocatedIPs()).toEqual([ips[0]]);
    expect(env.bridgePorts()).toHaveLength(1);
    expect(cacheEntries().sort()).toEqual([`cni-loopback-${req.id}-lo`, `${env.networkName}-${req.id}-eth0`].sort());

    await cni.checkPodNetwork(req); // the real plugins agree the attachment is intact

    await cni.teardownPodNetwork(req);
    expect(env.allocatedIPs()).toEqual([]);
    expect(env.bridgePorts()).toEqual([]);
    expect(links(ns)).toEqual(['lo']);
    expect(cacheEntries()).toEqual([]);
    await expect(cni.teardownPodNetwork(req)).resolves.toBeUndefined(); // idempotent
  });

  test('two pods on the bridge reach each other', async () => {
    const a = await newPod();
    const b = await newPod();
    const ipA = (await cni.setupPodNetwork(a.req)).ips[0]!;
    const ipB = (await cni.setupPodNetwork(b.req)).ips[0]!;
    expect(ipA).not.toBe(ipB);

    expect(inNetns(a.ns, ['busybox', 'ping', '-c1', '-W5', ipB])).toContain('1 packets received');
    expect(inNetns(b.ns, ['busybox', 'ping', '-c1', '-W5', ipA])).toContain('1 packets received');

    await cni.teardownPodNetwork(a.req);
    await cni.teardownPodNetwork(b.req);
    expect(env.allocatedIPs()).toEqual([]);
  });

  test('teardown after the netns is gone still frees the IP', async () => {
    const { ns, req } = await newPod();
    const { ips } = await cni.setupPodNetwork(req);
    expect(env.allocatedIPs()).toEqual([ips[0]]);
    ns.remove();

    await cni.teardownPodNetwork(req);
    expect(env.allocatedIPs()).toEqual([]);
    expect(cacheEntries()).toEqual([]);
  });

  test('the cache names the pods not in a known set as the requests that tear them down, netns included', async () => {
    const kept = await newPod();
    const lost = await newPod();
    await cni.setupPodNetwork(kept.req);
    const lostIp = (await cni.setupPodNetwork(lost.req)).ips[0]!;
    expect(cni.cachedPodsExcept(new Set([kept.req.id, lost.req.id]))).toEqual([]);

    const [orphan, ...more] = cni.cachedPodsExcept(new Set([kept.req.id]));
    expect(more).toEqual([]);
    expect(orphan).toEqual(lost.req); // identity from the ADD's CNI args, netns as the ADD recorded it
    await cni.teardownPodNetwork(orphan!);
    expect(links(lost.ns)).toEqual(['lo']); // the DEL reached into the pod's netns
    expect(env.allocatedIPs()).not.toContain(lostIp);
    expect(env.allocatedIPs()).toHaveLength(1);
    expect(cni.cachedPodsExcept(new Set([kept.req.id]))).toEqual([]);

    // An entry written before the cache recorded the netns: the DEL runs with none, and still frees the IP.
    for (const name of cacheEntries()) {
      const file = join(env.cacheDir, 'results', name);
      const { netns: _netns, ...entry } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify(entry));
    }
    const [old] = cni.cachedPodsExcept(new Set());
    expect(old).toEqual({ ...kept.req, netnsPath: '' });
    await cni.teardownPodNetwork(old!);
    expect(env.allocatedIPs()).toEqual([]);
    expect(cacheEntries()).toEqual([]);
  });

  test('teardown uses the cached config when conf_dir no longer has it', async () => {
    const { req } = await newPod();
    await cni.setupPodNetwork(req);
    execFileSync('rm', ['-f', join(env.confDir, '10-berth-test.conflist')]);
    expect(cni.hasConfig()).toBe(false);

    await cni.teardownPodNetwork(req);
    expect(env.allocatedIPs()).toEqual([]);
    expect(env.bridgePorts()).toEqual([]);
  });

  test('a failing plugin is named in the error and the partial ADD is rolled back', async () => {
    env.writePlugin('failer', FAILER);
    env.writeConflist([{ type: 'failer' }]);
    const { ns, req } = await newPod();

    const err = await cni.setupPodNetwork(req).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('CNI plugin "failer" ADD');
    expect((err as Error).message).toContain('no ponies left (pony pool exhausted) [code 7]');
    expect((err as Error).message).toContain(req.id);
    expect(kindOf(err)).toBe('Internal');
    // The bridge plugin's part was undone: no IP held, no veth, nothing cached, only lo inside.
    expect(env.allocatedIPs()).toEqual([]);
    expect(env.bridgePorts()).toEqual([]);
    expect(cacheEntries()).toEqual([]);
    expect(links(ns)).toEqual(['lo']);
  });

  test('the DEL undoing a list that failed midway tells the plugins that ran what they attached (prevResult)', async () => {
    // As after a crash mid-list: the recovery DEL reads the same cache. libcni caches only a whole
    // list's result, so a firewall plugin's DEL then found no IPs and its rules stayed.
    const record = join(env.root, 'record.jsonl');
    env.writePlugin('recorder', RECORDER);
    env.writePlugin('failer', FAILER);
    env.writeConflist([{ type: 'recorder', recordTo: record }, { type: 'failer' }]);
    const { req } = await newPod();

    expect(kindOf(await cni.setupPodNetwork(req).catch((e: unknown) => e))).toBe('Internal');

    type Rec = { command: string; stdin: { prevResult?: unknown } };
    const recs = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Rec);
    expect(recs.map((r) => r.command)).toEqual(['ADD', 'DEL']);
    expect(recs[1]!.stdin.prevResult).toEqual(recs[0]!.stdin.prevResult); // the bridge's result, its IP
    expect(JSON.stringify(recs[1]!.stdin.prevResult)).toContain(env.subnetPrefix);
    expect(env.allocatedIPs()).toEqual([]);
    expect(cacheEntries()).toEqual([]);
  });

  test("a second network's IP from a result naming no interface (CNI 0.2.0) is among the pod's IPs, as go-cni credits it to eth0", async () => {
    env.writeConflist();
    env.writePlugin('legacy', `#!/bin/sh\ncat >/dev/null\n[ "$CNI_COMMAND" = ADD ] && echo '{"cniVersion":"0.2.0","ip4":{"ip":"10.99.7.5/24"}}'\nexit 0\n`);
    writeFileSync(join(env.confDir, '20-legacy.conf'), JSON.stringify({ cniVersion: '0.2.0', name: 'legacy', type: 'legacy' }));
    const two = new CniManager({ confDir: env.confDir, binDirs: env.binDirs, cacheDir: env.cacheDir, maxConfNum: 2 });
    const { req } = await newPod();
    const { ips, result } = await two.setupPodNetwork(req);
    expect(ips).toHaveLength(2);
    expect(ips[0]).toMatch(new RegExp(`^${env.subnetPrefix.replace(/\./g, '\\.')}\\.`));
    expect(ips[1]).toBe('10.99.7.5');
    expect(result.interfaces.eth1).toBeUndefined();
    await two.teardownPodNetwork(req);
    expect(env.allocatedIPs()).toEqual([]);
  });

  test('a plugin missing from bin_dirs is named, and nothing is left', async () => {
    env.writeConflist([{ type: 'no-such-plugin' }]);
    const { req } = await newPod();
    const err = await cni.setupPodNetwork(req).catch((e: unknown) => e);
    expect((err as Error).message).toContain('CNI plugin "no-such-plugin" not found');
    expect(env.allocatedIPs()).toEqual([]);
    expect(env.bridgePorts()).toEqual([]);
  });

  test('a plugin that hangs is killed at the timeout and the ADD rolled back', async () => {
    env.writePlugin('hang', '#!/bin/sh\nif [ "$CNI_COMMAND" = "ADD" ]; then exec sleep 600; fi\ncat >/dev/null\n');
    env.writeConflist([{ type: 'hang' }]);
    const quick = new CniManager({ confDir: env.confDir, binDirs: env.binDirs, cacheDir: env.cacheDir, pluginTimeoutMs: 2_000 });
    const { req } = await newPod();
    const err = await quick.setupPodNetwork(req).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('DeadlineExceeded');
    expect((err as Error).message).toContain('CNI plugin "hang" ADD');
    expect(env.allocatedIPs()).toEqual([]);
  });

  test('each plugin gets the spec inputs: env, prevResult, its capabilities; DEL runs in reverse', async () => {
    const record = join(env.root, 'record.jsonl');
    env.writePlugin('recorder', RECORDER);
    env.writeConflist([
      { type: 'recorder', recordTo: record, tag: 'first', capabilities: { portMappings: true, bandwidth: true } },
      { type: 'recorder', recordTo: record, tag: 'second' },
    ]);
    const { ns, req } = await newPod();
    const portMappings = [
      { hostPort: 18080, containerPort: 80, protocol: 'tcp' as const },
      { hostPort: 0, containerPort: 81, protocol: 'udp' as const }, // no host port: not passed
    ];
    const bandwidth = { ingressRate: 1_000_000, ingressBurst: 10_000 };
    const { ips } = await cni.setupPodNetwork({ ...req, portMappings, bandwidth });
    await cni.teardownPodNetwork(req); // no port mappings given: the cached ones are used

    type Rec = { command: string; env: Record<string, string>; stdin: Record<string, unknown> };
    const recs = readFileSync(record, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Rec);
    expect(recs.map((r) => `${r.command}:${String(r.stdin.tag)}`)).toEqual(['ADD:first', 'ADD:second', 'DEL:second', 'DEL:first']);

    const [addFirst, addSecond, delSecond, delFirst] = recs as [Rec, Rec, Rec, Rec];
    expect(addFirst.env).toEqual({
      CNI_COMMAND: 'ADD',
      CNI_CONTAINERID: req.id,
      CNI_NETNS: ns.path,
      CNI_IFNAME: 'eth0',
      CNI_ARGS: `IgnoreUnknown=1;K8S_POD_NAMESPACE=berth-test;K8S_POD_NAME=${req.podName};K8S_POD_INFRA_CONTAINER_ID=${req.id};K8S_POD_UID=${req.podUid}`,
      CNI_PATH: env.binDirs.join(':'),
    });
    expect(addFirst.stdin).toMatchObject({ name: env.networkName, cniVersion: '1.0.0' });
    expect(JSON.stringify(addFirst.stdin.prevResult)).toContain(`"${ips[0]}/24"`);
    expect(addFirst.stdin.runtimeConfig).toEqual({ portMappings: [portMappings[0]], bandwidth });
    expect(addSecond.stdin.runtimeConfig).toBeUndefined();
    expect(addSecond.stdin.prevResult).toEqual(addFirst.stdin.prevResult);
    expect(delSecond.stdin.prevResult).toEqual(addFirst.stdin.prevResult);
    expect(delFirst.stdin.runtimeConfig).toEqual({ portMappings: [portMappings[0]], bandwidth });
    expect(env.allocatedIPs()).toEqual([]);
  });
});
