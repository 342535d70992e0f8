// Newer CRI features a kubelet (1.30-1.31) uses, through a real berthd, runc 1.1.5 and this kernel
// (>= 5.12, so mount_setattr with AT_RECURSIVE exists): recursive read-only mounts, advertised
// per runtime handler (not for a handler whose runc predates `runc features`) and enforced on
// submounts; supplemental_groups_policy Merge/Strict with the
// groups the container really gets reported in ContainerStatus.user; ContainerStatus.resources
// following CreateContainer and UpdateContainerResources.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { release } from 'node:os';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import type { Mount } from '../../../internal/api/gen/runtime/v1/Mount';
import { callError } from '../../harness/cri_client';
import { BERTH_USER } from '../../harness/images';
import { createBerthEnv, deadline, SLEEPER, type BerthEnv } from '../recovery/berth_env';
import { until } from '../recovery/probes';
import { importBusyboxWith } from './extra_layer_image';

jest.setTimeout(180_000);

// A handler whose runc is as old as 1.0: no `features` verb, so nothing to learn "rro" from.
const OLD_HANDLER = 'runc-1.0';
const GROUPS_IMAGE = 'berth.test/groups/app:1';
const EXTRA_GID = 4242;
const MiB = 1024 * 1024;

const isMountPoint = (path: string): boolean =>
  readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .some((l) => l.split(' ')[4] === path);

describe('newer CRI features', () => {
  let s: BerthEnv;
  let submount = '';

  beforeAll(async () => {
    // Naming runtimes replaces the default table, so runc is listed again.
    s = await createBerthEnv({
      extraToml: (dir) => `[cri.runtimes.runc]
runtime_type = "io.containerd.runc.v2"
[cri.runtimes.${JSON.stringify(OLD_HANDLER)}]
runtime_type = "io.containerd.runc.v2"
[cri.runtimes.${JSON.stringify(OLD_HANDLER)}.options]
BinaryName = ${JSON.stringify(join(dir, 'old-runc'))}
`,
    });
    const runc = execFileSync('sh', ['-c', 'command -v runc'], { encoding: 'utf8' }).trim();
    writeFileSync(join(s.dir, 'old-runc'), `#!/bin/sh
[ "$1" = features ] && { echo asked >> ${JSON.stringify(join(s.dir, 'old-runc.asked'))}; echo "No help topic for 'features'" >&2; exit 3; }
exec ${runc} "$@"
`);
    chmodSync(join(s.dir, 'old-runc'), 0o755);
    await s.start();
    // berth is listed as a member of "extra" in this image's /etc/group.
    await importBusyboxWith(s.client, s.dir, GROUPS_IMAGE, [
      { name: 'etc/', type: 'directory' },
      { name: 'etc/group', data: `root:x:0:\nberth:x:${BERTH_USER.gid}:\nextra:x:${EXTRA_GID}:berth\n`, mode: 0o644 },
    ]);
  });

  afterAll(async () => {
    // The tmpfs lives under the env's dir, which close() removes.
    if (submount !== '' && isMountPoint(submount)) execFileSync('umount', [submount]);
    await s?.close();
  });

  async function exec(id: string, script: string): Promise<string> {
    const r = await s.client.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', script], timeout: '30' });
    return r.stdout.toString() + r.stderr.toString();
  }

  async function running(podId: string, pod: Parameters<BerthEnv['create']>[1], name: string, extra: Parameters<BerthEnv['create']>[4]) {
    const id = await s.create(podId, pod, name, SLEEPER, extra);
    await s.client.runtime.StartContainer({ container_id: id });
    return id;
  }

  it('asks each handler\'s runc for its features once serving, before any call, and keeps the answers across restarts', async () => {
    const asked = () => (existsSync(join(s.dir, 'old-runc.asked')) ? readFileSync(join(s.dir, 'old-runc.asked'), 'utf8').split('\n').filter(Boolean).length : 0);
    // Asked at the start in beforeAll (no CreateContainer or Status needed it), once.
    const keptFile = join(s.daemon.root, 'runtime-features.json');
    type Kept = { binaries: Record<string, { recursiveReadOnlyMounts: boolean }> };
    const kept = (): Kept | undefined => (existsSync(keptFile) ? (JSON.parse(readFileSync(keptFile, 'utf8')) as Kept) : undefined);
    await until('both handlers\' features kept', () => Object.keys(kept()?.binaries ?? {}).length === 2);
    expect(kept()!.binaries[join(s.dir, 'old-runc')]).toEqual({ identity: expect.any(String), kernel: release(), recursiveReadOnlyMounts: false });
    expect(Object.values(kept()!.binaries).filter((b) => b.recursiveReadOnlyMounts)).toHaveLength(1); // runc, on PATH
    expect(asked()).toBe(1);
    await s.stop();
    await s.start();
    const res = await s.client.runtime.Status({ verbose: false });
    expect(res.runtime_handlers.find((h) => h.name === OLD_HANDLER)?.features?.recursive_read_only_mounts).toBe(false);
    expect(asked()).toBe(1);
  });

  it('advertises recursive read-only mounts for the handlers whose runc lists "rro", and supplemental_groups_policy', async () => {
    const res = await s.client.runtime.Status({ verbose: false });
    const rro = { recursive_read_only_mounts: true, user_namespaces: false };
    expect(res.runtime_handlers).toEqual([
      { name: '', features: rro },
      { name: 'runc', features: rro },
      { name: OLD_HANDLER, features: { recursive_read_only_mounts: false, user_namespaces: false } },
    ]);
    expect(res.features).toMatchObject({ supplemental_groups_policy: true });
  });

  it('makes submounts of a recursive read-only bind read-only too; a plain read-only bind leaves them writable', async () => {
    const source = join(s.dir, 'rro-source');
    submount = join(source, 'sub');
    mkdirSync(submount, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'berth-rro-test', submount]);
    writeFileSync(join(submount, 'shipped'), 'from the host\n');

    const { podId, config: pod } = await s.runPod('rro');
    const bind = (o: Partial<Mount>): Mount => ({ container_path: '/data', host_path: source, readonly: true, ...o });
    const rro = await running(podId, pod, 'rro', { mounts: [bind({ recursive_read_only: true })] });
    const ro = await running(podId, pod, 'ro', { mounts: [bind({})] });

    // The submount is there in both, and the top of the bind is read-only in both.
    for (const id of [rro, ro]) {
      expect(await exec(id, 'cat /data/sub/shipped')).toBe('from the host\n');
      expect(await exec(id, 'touch /data/top 2>&1; echo rc=$?')).toMatch(/Read-only file system\nrc=1\n$/);
    }
    expect(await exec(rro, 'touch /data/sub/by-rro 2>&1; echo rc=$?')).toMatch(/Read-only file system\nrc=1\n$/);
    expect(await exec(ro, 'touch /data/sub/by-ro 2>&1; echo rc=$?')).toBe('rc=0\n');
    expect(existsSync(join(submount, 'by-ro'))).toBe(true);
    expect(existsSync(join(submount, 'by-rro'))).toBe(false);

    // Refused as containerd 2.0 refuses it: on a writable mount, or with non-private propagation.
    const writable = await callError(s.create(podId, pod, 'rro-rw', SLEEPER, { mounts: [bind({ readonly: false, recursive_read_only: true })] }));
    expect(writable.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(writable.details).toContain('recursive read-only mount conflicts with a read-write mount');
    const slave = await callError(
      s.create(podId, pod, 'rro-slave', SLEEPER, { mounts: [bind({ recursive_read_only: true, propagation: 'PROPAGATION_HOST_TO_CONTAINER' })] }),
    );
    expect(slave.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(slave.details).toContain('recursive read-only mount needs private propagation, got PROPAGATION_HOST_TO_CONTAINER');

    // A pod on the handler whose runc cannot say it supports "rro" gets a refusal, not a plain ro bind.
    const oldPod = s.podConfig('rro-old-runc');
    const { pod_sandbox_id: oldPodId } = await s.client.runtime.RunPodSandbox({ config: oldPod, runtime_handler: OLD_HANDLER }, deadline());
    const unsupported = await callError(s.create(oldPodId, oldPod, 'rro', SLEEPER, { mounts: [bind({ recursive_read_only: true })] }));
    expect(unsupported.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(unsupported.details).toContain('runtime handler does not support recursive read-only mounts');
    const plain = await running(oldPodId, oldPod, 'ro', { mounts: [bind({})] });
    expect(await exec(plain, 'touch /data/sub/by-old-runc 2>&1; echo rc=$?')).toBe('rc=0\n');
  });

  it("merges the image's /etc/group memberships unless the policy is Strict, and reports the groups in ContainerStatus.user", async () => {
    const { podId, config: pod } = await s.runPod('groups');
    const asBerth = (policy: 'Merge' | 'Strict') => ({
      image: { image: GROUPS_IMAGE },
      linux: { security_context: { run_as_user: { value: String(BERTH_USER.uid) }, supplemental_groups: ['5000'], supplemental_groups_policy: policy } },
    });
    const merge = await running(podId, pod, 'merge', asBerth('Merge'));
    const strict = await running(podId, pod, 'strict', asBerth('Strict'));

    expect(await exec(merge, 'id -u; id -G')).toBe(`${BERTH_USER.uid}\n${BERTH_USER.gid} ${EXTRA_GID} 5000\n`);
    expect(await exec(strict, 'id -u; id -G')).toBe(`${BERTH_USER.uid}\n${BERTH_USER.gid} 5000\n`);
    expect((await s.status(merge)).user).toEqual({
      linux: { uid: String(BERTH_USER.uid), gid: String(BERTH_USER.gid), supplemental_groups: [String(BERTH_USER.gid), String(EXTRA_GID), '5000'] },
    });
    expect((await s.status(strict)).user).toEqual({
      linux: { uid: String(BERTH_USER.uid), gid: String(BERTH_USER.gid), supplemental_groups: [String(BERTH_USER.gid), '5000'] },
    });
  });

  it('reports the resources set at create, and the new ones after UpdateContainerResources', async () => {
    const { podId, config: pod } = await s.runPod('resources');
    const id = await running(podId, pod, 'limited', {
      linux: { resources: { cpu_period: '100000', cpu_quota: '50000', cpu_shares: '512', memory_limit_in_bytes: String(64 * MiB) } },
    });
    expect((await s.status(id)).resources?.linux).toMatchObject({
      cpu_period: '100000',
      cpu_quota: '50000',
      cpu_shares: '512',
      memory_limit_in_bytes: String(64 * MiB),
    });

    await s.client.runtime.UpdateContainerResources({ container_id: id, linux: { cpu_quota: '20000', memory_limit_in_bytes: String(128 * MiB) } });
    expect((await s.status(id)).resources?.linux).toMatchObject({
      cpu_period: '100000',
      cpu_quota: '20000',
      cpu_shares: '512',
      memory_limit_in_bytes: String(128 * MiB),
    });
  });
});
