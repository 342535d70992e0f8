// A pod the metadata database forgot (its commits lost with a torn WAL, a reset metadata.db) is
// swept at the next start: its pause and containers killed, its netns and dirs removed. Its IP must
// go back to the IPAM plugin's store too, by the CNI DEL StopPodSandbox would have run (from the
// result cache its ADD wrote), and the start must say at warn level what it removed. A pod whose
// netns file someone else removed gets the same DEL at its StopPodSandbox.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { callError } from '../../harness/cri_client';
import { readDaemonDb, writeStoppedDaemonDb } from '../../harness/daemon_db';
import { dbRows, leaks } from './host_state';
import { createBerthEnv, SLEEPER, type BerthEnv } from './berth_env';

jest.setTimeout(300_000);

/** A bridge plugin, found before the real one, whose DEL fails with a CNI error. */
const BRIDGE_FAILING_DEL = `#!/bin/sh
cat >/dev/null
echo '{"cniVersion":"1.0.0","code":11,"msg":"bridge DEL refused by the test"}'
exit 1
`;

describe('a running pod whose records the database lost while berthd was down', () => {
  let env: BerthEnv;

  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
  });
  afterAll(async () => env?.close());

  /** The CNI result cache entries naming `podId` (<root>/cni/results/<network>-<id>-<ifName>). */
  const cacheEntries = (podId: string): string[] => {
    const dir = join(env.daemon.root, 'cni', 'results');
    return existsSync(dir) ? readdirSync(dir).filter((n) => n.includes(`-${podId}-`)) : [];
  };
  /** host-local's allocations that name `podId` (each file is an IP and holds its container ID). */
  const ipsHeldBy = (podId: string): string[] => {
    const dir = join(env.cni.ipamDir, env.cni.networkName);
    return env.cni.allocatedIPs().filter((ip) => readFileSync(join(dir, ip), 'utf8').includes(podId));
  };
  const podIp = async (podId: string): Promise<string> =>
    (await env.client.runtime.PodSandboxStatus({ pod_sandbox_id: podId })).status!.network!.ip;
  /** Stops berthd and deletes the pod's rows, as a WAL that lost their commits would. */
  const forgetWhileDown = async (podId: string): Promise<void> => {
    await env.stop();
    writeStoppedDaemonDb(env.daemon.root, (db) => {
      db.prepare('DELETE FROM containers WHERE sandbox_id = ?').run(podId);
      db.prepare('DELETE FROM sandboxes WHERE id = ?').run(podId);
    });
  };
  const logLines = (level: string, text: string): string[] =>
    env.daemon
      .stderr()
      .split('\n')
      .filter((l) => l.includes(`"level":"${level}"`) && l.includes(text));

  it('gives its IP back to IPAM at the next start and warns about what the sweep removed', async () => {
    const { podId, config } = await env.runPod('forgotten');
    const ctr = await env.create(podId, config, 'app', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: ctr });
    const ip = await podIp(podId);
    expect(ipsHeldBy(podId)).toEqual([ip]);
    expect(cacheEntries(podId)).toHaveLength(2); // lo and eth0

    await forgetWhileDown(podId);
    await env.start();

    expect((await env.client.runtime.ListPodSandbox({})).items.map((p) => p.id)).not.toContain(podId);
    expect(ipsHeldBy(podId)).toEqual([]);
    expect(env.cni.allocatedIPs()).not.toContain(ip);
    expect(cacheEntries(podId)).toEqual([]);
    expect(env.cni.bridgePorts()).toEqual([]);
    expect(leaks(env.host())).toEqual([]);
    const warnings = logLines('warn', 'recovery removed');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('recovery removed 2 task(s), 1 pod network(s), 1 network namespace(s)');

    // The freed address is the store's again: the next pod gets an IP with nothing left over.
    const next = await env.runPod('after');
    expect(await podIp(next.podId)).not.toBe('');
    expect(env.cni.allocatedIPs()).toHaveLength(1);
    await env.removeAll();
  });

  it('serves when the DEL fails, logs it at warn, and detaches the pod at the start after', async () => {
    const { podId } = await env.runPod('forgotten-stuck');
    const ip = await podIp(podId);
    const { metadata } = readDaemonDb(env.daemon.root, (db) => db.prepare('SELECT metadata FROM sandboxes WHERE id = ?').get(podId) as { metadata: string });
    const { netnsPath } = JSON.parse(metadata) as { netnsPath: string };
    expect(existsSync(netnsPath)).toBe(true);
    await forgetWhileDown(podId);
    const fake = env.cni.writePlugin('bridge', BRIDGE_FAILING_DEL);
    try {
      await env.start();
      expect(logLines('warn', 'cannot detach orphan pod network').filter((l) => l.includes(podId))).toHaveLength(1);
      expect(ipsHeldBy(podId)).toEqual([ip]);
      expect(cacheEntries(podId)).toEqual([`${env.cni.networkName}-${podId}-eth0`]); // lo's DEL went through
      // Its netns is kept for the next DEL, which can then clean the pod's side too.
      expect(existsSync(netnsPath)).toBe(true);
      await env.stop();
    } finally {
      rmSync(fake);
    }

    await env.start();
    expect(logLines('info', 'detached orphan pod network').filter((l) => l.includes(podId) && l.includes(netnsPath))).toHaveLength(1);
    expect(ipsHeldBy(podId)).toEqual([]);
    expect(cacheEntries(podId)).toEqual([]);
    expect(existsSync(netnsPath)).toBe(false);
    expect(leaks(env.host())).toEqual([]);
  });

  it('gives the IP of a pod whose netns file someone removed back at StopPodSandbox', async () => {
    const { podId, config } = await env.runPod('netns-removed');
    const ctr = await env.create(podId, config, 'app', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: ctr });
    const ip = await podIp(podId);
    const { netnsPath } = dbRows(env.daemon.root).sandboxes.find((s) => s.id === podId)!;
    // An operator's cleanup: the netns unmounted and its file gone while the pod runs.
    execFileSync('umount', [netnsPath]);
    rmSync(netnsPath);

    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId });
    expect(ipsHeldBy(podId)).toEqual([]);
    expect(env.cni.allocatedIPs()).not.toContain(ip);
    expect(cacheEntries(podId)).toEqual([]);
    // Once detached, a repeated stop has nothing to do.
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId });
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
    expect(env.cni.bridgePorts()).toEqual([]);
    expect(leaks(env.host())).toEqual([]);
  });

  it('fails StopPodSandbox while neither a cached result nor a CNI config says what to detach, and detaches once a config is back', async () => {
    const { podId } = await env.runPod('nothing-to-detach');
    const ip = await podIp(podId);
    for (const name of cacheEntries(podId)) rmSync(join(env.daemon.root, 'cni', 'results', name));
    const confs = readdirSync(env.cni.confDir);
    const texts = confs.map((name) => readFileSync(join(env.cni.confDir, name)));
    for (const name of confs) rmSync(join(env.cni.confDir, name));
    try {
      const err = await callError(env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }));
      expect(err.code).toBe(GrpcStatus.FAILED_PRECONDITION);
      expect(err.details).toContain(`cannot detach the network of pod ${podId}: no result of its CNI ADD is cached`);
      expect(ipsHeldBy(podId)).toEqual([ip]);
    } finally {
      confs.forEach((name, i) => writeFileSync(join(env.cni.confDir, name), texts[i]!));
    }
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId });
    expect(ipsHeldBy(podId)).toEqual([]);
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
    expect(leaks(env.host())).toEqual([]);
  });
});
