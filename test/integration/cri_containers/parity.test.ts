// Where berth answers as containerd does, seen through the CRI of a real berthd: image_ref in
// ListContainers, the image-name annotation (as asked, or the image's first tag), stops of unknown IDs, a stopped pod's IP, privileged
// /sys, kubelet's hugepage entries, and the RuntimeDefault seccomp profile at work.
import { callError } from '../../harness/cri_client';
import { BUSYBOX_IMAGE } from '../../harness/images';
import { startContainerSuite, type ContainerSuite } from './env';

jest.setTimeout(180_000);

const SLEEPER = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];
const RUNTIME_DEFAULT = { profile_type: 'RuntimeDefault' as const, localhost_ref: '' };
const UNKNOWN_ID = 'f'.repeat(64);

describe('CRI parity with containerd', () => {
  let s: ContainerSuite;

  beforeAll(async () => {
    s = await startContainerSuite();
  });

  afterAll(async () => {
    await s?.close();
  });

  async function exec(id: string, cmd: string[]): Promise<{ exit: number; stdout: string; stderr: string }> {
    const r = await s.client.runtime.ExecSync({ container_id: id, cmd, timeout: '30' });
    return { exit: r.exit_code, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  }

  it('ListContainers image_ref is the image ID; the image-name annotation is the image the user wrote', async () => {
    const image = (await s.client.image.ImageStatus({ image: { image: BUSYBOX_IMAGE } })).image!;
    // An imported image has no repo digest (containerd records none): both show the ID.
    expect(image.repo_digests).toEqual([]);
    const { podId, config: pod } = await s.runPod('imageref');
    // kubelet >= 1.29: the resolved ID in image, the pod spec's string in user_specified_image.
    const id = await s.create(podId, pod, 'main', SLEEPER, { image: { image: image.id, user_specified_image: BUSYBOX_IMAGE } });

    const { containers } = await s.client.runtime.ListContainers({ filter: { id } });
    expect(containers).toHaveLength(1);
    expect(containers[0]).toMatchObject({ image_ref: image.id, image_id: image.id, image: { image: image.id, user_specified_image: BUSYBOX_IMAGE } });

    const status = await s.client.runtime.ContainerStatus({ container_id: id, verbose: true });
    expect(status.status).toMatchObject({ image_id: image.id, image_ref: image.id, image: { image: image.repo_tags[0] } });
    const spec = JSON.parse(status.info.info ?? '{}') as { runtimeSpec: { annotations: Record<string, string> } };
    expect(spec.runtimeSpec.annotations['io.kubernetes.cri.image-name']).toBe(BUSYBOX_IMAGE);
  });

  it("without user_specified_image the image-name annotation is the image's first tag, as containerd's first reference", async () => {
    // Kubelets before 1.29 create by image ID; crictl by the name the user typed.
    const image = (await s.client.image.ImageStatus({ image: { image: BUSYBOX_IMAGE } })).image!;
    const { podId, config: pod } = await s.runPod('imagename');
    const shortName = BUSYBOX_IMAGE.replace(/^docker\.io\/library\//, '').replace(/:latest$/, '');
    for (const [name, asked] of [['by-id', image.id], ['by-short-name', shortName]] as const) {
      const id = await s.create(podId, pod, name, SLEEPER, { image: { image: asked, user_specified_image: '' } });
      const status = await s.client.runtime.ContainerStatus({ container_id: id, verbose: true });
      const spec = JSON.parse(status.info.info ?? '{}') as { runtimeSpec: { annotations: Record<string, string> } };
      expect(spec.runtimeSpec.annotations['io.kubernetes.cri.image-name']).toBe(image.repo_tags[0]);
    }
  });

  it('StopContainer and StopPodSandbox of an unknown ID answer OK; an empty ID is still refused', async () => {
    await expect(s.client.runtime.StopContainer({ container_id: UNKNOWN_ID, timeout: '0' })).resolves.toEqual({});
    await expect(s.client.runtime.StopPodSandbox({ pod_sandbox_id: UNKNOWN_ID })).resolves.toEqual({});
    expect((await callError(s.client.runtime.StopContainer({ container_id: '', timeout: '0' }))).details).toMatch(/must not be empty/);
  });

  it('a stopped pod reports no IP, and its pause task deleted', async () => {
    const { podId } = await s.runPod('stopped-ip');
    const running = (await s.client.runtime.PodSandboxStatus({ pod_sandbox_id: podId })).status!;
    expect(running.network?.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    await s.client.runtime.StopPodSandbox({ pod_sandbox_id: podId });
    const { status: stopped, info } = await s.client.runtime.PodSandboxStatus({ pod_sandbox_id: podId, verbose: true });
    expect(stopped!.state).toBe('SANDBOX_NOTREADY');
    // The pause task is deleted by the stop, which containerd's verbose status says.
    expect((JSON.parse(info.info ?? '{}') as { processStatus: string }).processStatus).toBe('deleted');
    expect(stopped!.network).toEqual({ ip: '', additional_ips: [] });
  });

  it('a privileged container sees /sys read-write; an ordinary one read-only', async () => {
    const sysMount = async (privileged: boolean) => {
      const nsOptions = { network: 'POD' as const, pid: 'CONTAINER' as const, ipc: 'POD' as const };
      const { podId, config: pod } = await s.runPod(`sys-${privileged}`, {
        linux: { cgroup_parent: s.cgroupParent, security_context: { privileged, namespace_options: nsOptions } },
      });
      const id = await s.create(podId, pod, 'main', SLEEPER, { linux: { security_context: { privileged } } });
      await s.client.runtime.StartContainer({ container_id: id });
      const r = await exec(id, ['grep', ' /sys ', '/proc/mounts']);
      expect(r.exit).toBe(0);
      return r.stdout.trim().split(' ')[3]?.split(',')[0];
    };
    expect(await sysMount(true)).toBe('rw');
    expect(await sysMount(false)).toBe('ro');
  });

  it("starts a container with kubelet's limit-0 hugepage entries (hugetlb controller off by default)", async () => {
    const { podId, config: pod } = await s.runPod('hugepages');
    const hugepage_limits = [
      { page_size: '2MB', limit: '0' },
      { page_size: '1GB', limit: '0' },
    ];
    const id = await s.create(podId, pod, 'main', SLEEPER, { linux: { resources: { hugepage_limits } } });
    await s.client.runtime.StartContainer({ container_id: id });
    expect((await s.status(id)).state).toBe('CONTAINER_RUNNING');
    const info = JSON.parse((await s.client.runtime.ContainerStatus({ container_id: id, verbose: true })).info.info ?? '{}') as {
      runtimeSpec: { linux: { resources: { hugepageLimits?: unknown } } };
    };
    expect(info.runtimeSpec.linux.resources.hugepageLimits).toBeUndefined();
  });

  it("RuntimeDefault is containerd's profile: personality only for its listed values, adjtimex readable", async () => {
    const { podId, config: pod } = await s.runPod('seccomp');
    const id = await s.create(podId, pod, 'main', SLEEPER, { linux: { security_context: { seccomp: RUNTIME_DEFAULT } } });
    await s.client.runtime.StartContainer({ container_id: id });
    expect((await exec(id, ['grep', 'Seccomp:', '/proc/self/status'])).stdout).toMatch(/^Seccomp:\s+2$/m);
    // personality(PER_LINUX32) is allowed; with ADDR_NO_RANDOMIZE it is not (containerd denies it).
    expect(await exec(id, ['linux32', 'true'])).toEqual({ exit: 0, stdout: '', stderr: '' });
    const randomizationOff = await exec(id, ['linux32', '-R', 'true']);
    expect(randomizationOff.exit).not.toBe(0);
    expect(randomizationOff.stderr).toMatch(/Operation not permitted/);
    // adjtimex (reading the clock state) is allowed to everyone in containerd's table.
    const adjtimex = await exec(id, ['adjtimex']);
    expect(adjtimex).toMatchObject({ exit: 0, stderr: '' });
    expect(adjtimex.stdout).toMatch(/freq\.adjust/);
  });

  it('a pod reports its runtime handler as the request named it, and its pause spec has no cgroup mount', async () => {
    for (const handler of ['', 'runc']) {
      const config = s.podConfig(`handler-${handler || 'default'}`);
      const { pod_sandbox_id: id } = await s.client.runtime.RunPodSandbox({ config, runtime_handler: handler });
      const status = await s.client.runtime.PodSandboxStatus({ pod_sandbox_id: id, verbose: true });
      expect(status.status?.runtime_handler).toBe(handler);
      const info = JSON.parse(status.info.info ?? '{}') as { runtimeHandler: string; runtimeSpec: { mounts: Array<{ destination: string }> } };
      expect(info.runtimeHandler).toBe(handler);
      expect(info.runtimeSpec.mounts.map((m) => m.destination)).not.toContain('/sys/fs/cgroup');
      const { items } = await s.client.runtime.ListPodSandbox({ filter: { id } });
      expect(items.map((p) => p.runtime_handler)).toEqual([handler]);
    }
  });

  it('a device asked with no permissions is not widened to rwm: runc refuses it at start, as under containerd', async () => {
    const { podId, config: pod } = await s.runPod('device-perms');
    const devices = [{ host_path: '/dev/null', container_path: '/dev/xnull', permissions: '' }];
    const id = await s.create(podId, pod, 'main', SLEEPER, { devices });
    const err = await callError(s.client.runtime.StartContainer({ container_id: id }));
    expect(err.details).toMatch(/device access .*cannot be empty/);
  });
});
