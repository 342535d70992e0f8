// PodSandboxStatus verbose and the pod network result through a real berthd, as containerd gives
// them: the info carries the pause container's runtimeSpec, the CNI result and the sandbox metadata
// (kept across a berthd restart); a CNI chain whose result has no IP on eth0 fails RunPodSandbox
// and leaves no pod, IP, veth or netns behind instead of a Ready pod without an address.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deadline, importTestImages, podDriver, type PodDriver } from '../../harness/berth_env';
import { removeCgroupParent } from '../../harness/cgroups';
import { createCniTestEnv, type CniTestEnv } from '../../harness/cni';
import { callError, criClient, type CriClient } from '../../harness/cri_client';
import { startBerthd, type RunningBerthd } from '../../harness/daemon';
import { testImages } from '../../harness/images';

jest.setTimeout(180_000);

/** A chained CNI plugin that passes the previous result on without its IPs. */
const STRIP_IPS_PLUGIN = `#!${process.execPath}
let input = '';
process.stdin.on('data', (d) => (input += d)).on('end', () => {
  const command = process.env.CNI_COMMAND;
  if (command === 'ADD') {
    const conf = JSON.parse(input);
    process.stdout.write(JSON.stringify({ ...conf.prevResult, cniVersion: conf.cniVersion, ips: [] }));
  } else if (command === 'VERSION') {
    process.stdout.write(JSON.stringify({ cniVersion: '1.0.0', supportedVersions: ['0.4.0', '1.0.0'] }));
  }
});
`;

interface VerboseInfo {
  netns: string;
  runtimeSpec: { annotations: Record<string, string>; linux: { namespaces: Array<{ type: string; path?: string }> } } | null;
  cniResult: {
    Interfaces: Record<string, { IPConfigs: Array<{ IP: string; Gateway: string }> | null; Mac: string; Sandbox: string }>;
    Routes: Array<{ dst: string; gw?: string }> | null;
  } | null;
  sandboxMetadata: {
    Version: string;
    Metadata: { ID: string; Name: string; NetNSPath: string; IP: string; RuntimeHandler: string; Config: { metadata: { name: string } }; CNIResult: unknown };
  };
}

describe('PodSandboxStatus and the pod network result', () => {
  let cni: CniTestEnv;
  let dir: string;
  let configToml: string;
  let daemon: RunningBerthd;
  let client: CriClient;
  let pods: PodDriver;
  const cgroupParent = `/berth-sbs-${randomBytes(4).toString('hex')}`;

  async function start(): Promise<void> {
    daemon = await startBerthd({ dir, configToml });
    client = criClient(daemon.socket);
  }

  beforeAll(async () => {
    await testImages();
    cni = createCniTestEnv();
    cni.writePlugin('strip-ips', STRIP_IPS_PLUGIN);
    dir = mkdtempSync(join(tmpdir(), 'berth-sbs-'));
    configToml = `[cri]
restrict_oom_score_adj = true

[cni]
bin_dirs = ${JSON.stringify(cni.binDirs)}
conf_dir = ${JSON.stringify(cni.confDir)}
`;
    await start();
    await importTestImages(client);
    pods = podDriver({ client: () => client, cgroupParent, logDirectory: (name) => join(dir, 'logs', name) });
  });

  afterAll(async () => {
    try {
      if (client !== undefined) {
        for (const pod of (await client.runtime.ListPodSandbox({})).items) {
          await client.runtime.RemovePodSandbox({ pod_sandbox_id: pod.id }, deadline()).catch(() => undefined);
        }
        client.close();
      }
      await daemon?.stop();
    } finally {
      cni?.cleanup();
      removeCgroupParent(cgroupParent, '/berth-sbs-');
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    }
  });

  const netnsFiles = (): string[] => {
    const netnsDir = join(daemon.state, 'netns');
    return existsSync(netnsDir) ? readdirSync(netnsDir) : [];
  };

  async function verbose(podId: string): Promise<{ ip: string; info: VerboseInfo }> {
    const r = await client.runtime.PodSandboxStatus({ pod_sandbox_id: podId, verbose: true });
    return { ip: r.status!.network!.ip, info: JSON.parse(r.info.info!) as VerboseInfo };
  }

  it('verbose status carries runtimeSpec, cniResult and the sandbox metadata, also after a restart', async () => {
    const { podId, config } = await pods.runPod('verbose');
    const { ip, info } = await verbose(podId);
    expect(ip).toMatch(new RegExp(`^${cni.subnetPrefix.replace(/\./g, '\\.')}\\.\\d+$`));

    expect(info.runtimeSpec?.annotations).toMatchObject({ 'io.kubernetes.cri.container-type': 'sandbox', 'io.kubernetes.cri.sandbox-id': podId });
    expect(info.runtimeSpec?.linux.namespaces).toContainEqual({ type: 'network', path: info.netns });

    expect(info.cniResult?.Interfaces.eth0).toMatchObject({ IPConfigs: [{ IP: ip, Gateway: cni.gateway }], Sandbox: info.netns });
    expect(info.cniResult?.Interfaces.eth0?.Mac).toMatch(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
    expect(info.cniResult?.Routes).toContainEqual(expect.objectContaining({ dst: '0.0.0.0/0' }));

    expect(info.sandboxMetadata.Version).toBe('v1');
    expect(info.sandboxMetadata.Metadata).toMatchObject({ ID: podId, NetNSPath: info.netns, IP: ip, RuntimeHandler: '', CNIResult: info.cniResult });
    expect(info.sandboxMetadata.Metadata.Name).toContain(config.metadata!.name);
    expect(info.sandboxMetadata.Metadata.Config.metadata.name).toBe(config.metadata!.name);

    // The pod keeps running across a berthd restart, and so does what its status says about it.
    client.close();
    await daemon.stop();
    await start();
    const after = await verbose(podId);
    expect(after.ip).toBe(ip);
    expect(after.info.runtimeSpec).toEqual(info.runtimeSpec);
    expect(after.info.cniResult).toEqual(info.cniResult);
    expect(after.info.sandboxMetadata).toEqual(info.sandboxMetadata);
  });

  it('fails RunPodSandbox when the CNI result has no IP on eth0, leaving nothing behind', async () => {
    const podsBefore = (await client.runtime.ListPodSandbox({})).items.map((p) => p.id);
    const portsBefore = cni.bridgePorts();
    const ipsBefore = cni.allocatedIPs();
    const netnsBefore = netnsFiles();
    cni.writeConflist([{ type: 'strip-ips' }]);
    try {
      const err = await callError(pods.runPod('no-ip'));
      expect(err.details).toContain('failed to find network info for sandbox');
      expect(err.details).toContain('no IP on eth0');
    } finally {
      cni.writeConflist();
    }
    expect((await client.runtime.ListPodSandbox({})).items.map((p) => p.id)).toEqual(podsBefore);
    expect(cni.bridgePorts()).toEqual(portsBefore);
    expect(cni.allocatedIPs()).toEqual(ipsBefore);
    expect(netnsFiles()).toEqual(netnsBefore);
  });
});
