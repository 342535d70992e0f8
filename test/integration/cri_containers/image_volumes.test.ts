// Image-declared volumes through a real berthd, as containerd gives them: each VOLUME is a directory
// of its own seeded with what the image ships there (owner, mode, xattrs, symlinks as symlinks,
// FIFOs), so a non-root image can write it; nothing outside the rootfs is copied; a failed seed
// leaves nothing behind; ignore_image_defined_volumes leaves the paths in the rootfs.
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { lgetxattr } from '../../../internal/sys/fs';
import { callError } from '../../harness/cri_client';
import type { TarEntry } from '../archive/tarball';
import { createBerthEnv, SLEEPER, type BerthEnv } from '../recovery/berth_env';
import { importBusyboxWith } from './extra_layer_image';

jest.setTimeout(180_000);

const APP_IMAGE = 'berth.test/volumes/app:1';
const FILE_VOLUME_IMAGE = 'berth.test/volumes/file:1';
const UID = 1000;

/** Writes and imports an image: the busybox layer, then `entries`, with `volumes` declared. */
const importImage = (env: BerthEnv, name: string, entries: TarEntry[], volumes: string[]) => importBusyboxWith(env.client, env.dir, name, entries, volumes);

/** A directory outside every rootfs, with a file no volume may ever receive. */
function makeVictim(env: BerthEnv): string {
  const victim = join(env.dir, 'victim');
  mkdirSync(victim, { recursive: true });
  writeFileSync(join(victim, 'host-secret'), 'precious');
  return victim;
}

/**
 * The app image: /var/lib/app owned by 1000 mode 0700 with a file, a FIFO and a symlink out of the
 * rootfs; /data a symlink to /srv/real inside the image; /outside a symlink to the host's victim.
 */
function appEntries(victim: string): TarEntry[] {
  return [
    { name: 'var/', type: 'directory' },
    { name: 'var/lib/', type: 'directory' },
    { name: 'var/lib/app/', type: 'directory', mode: 0o700, uid: UID, gid: UID, pax: { 'SCHILY.xattr.user.seeded': 'yes' } },
    { name: 'var/lib/app/shipped.txt', data: 'from the image\n', mode: 0o600, uid: UID, gid: UID },
    { name: 'var/lib/app/escape', type: 'symlink', linkname: victim },
    { name: 'var/lib/app/fifo', type: 'fifo', mode: 0o600, uid: UID, gid: UID },
    { name: 'srv/', type: 'directory' },
    { name: 'srv/real/', type: 'directory', mode: 0o755 },
    { name: 'srv/real/hello', data: 'hello through an in-image symlink\n' },
    { name: 'data', type: 'symlink', linkname: '/srv/real' },
    { name: 'outside', type: 'symlink', linkname: victim },
  ];
}

/** Every name under `dir`, symlinks not followed. */
function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    out.push(path);
    if (lstatSync(path).isDirectory()) out.push(...walk(path));
  }
  return out;
}

describe('image-declared volumes', () => {
  let env: BerthEnv;
  let victim: string;

  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
    victim = makeVictim(env);
    await importImage(env, APP_IMAGE, appEntries(victim), ['/var/lib/app', '/data', '/outside']);
    await importImage(env, FILE_VOLUME_IMAGE, [{ name: 'data', data: 'a file, not a directory' }], ['/data']);
  });

  afterAll(async () => {
    await env?.close();
  });

  async function exec(id: string, cmd: string[]): Promise<{ exit: number; out: string }> {
    const r = await env.client.runtime.ExecSync({ container_id: id, cmd, timeout: '30' });
    return { exit: r.exit_code, out: r.stdout.toString() + r.stderr.toString() };
  }

  it('seeds each volume with the image content: a non-root container can write it, links stay links, nothing outside is copied', async () => {
    const { podId, config: pod } = await env.runPod('volumes');
    const id = await env.create(podId, pod, 'app', SLEEPER, {
      image: { image: APP_IMAGE },
      linux: { security_context: { run_as_user: { value: String(UID) }, run_as_group: { value: String(UID) } } },
    });
    await env.client.runtime.StartContainer({ container_id: id });

    expect(await exec(id, ['stat', '-c', '%u:%g %a', '/var/lib/app'])).toEqual({ exit: 0, out: `${UID}:${UID} 700\n` });
    expect(await exec(id, ['cat', '/var/lib/app/shipped.txt'])).toEqual({ exit: 0, out: 'from the image\n' });
    expect(await exec(id, ['sh', '-c', 'echo mine > /var/lib/app/new && cat /var/lib/app/new'])).toEqual({ exit: 0, out: 'mine\n' });
    expect(await exec(id, ['sh', '-c', 'test -L /var/lib/app/escape && readlink /var/lib/app/escape'])).toEqual({ exit: 0, out: `${victim}\n` });
    expect((await exec(id, ['test', '-p', '/var/lib/app/fifo'])).exit).toBe(0);
    expect(await exec(id, ['cat', '/data/hello'])).toEqual({ exit: 0, out: 'hello through an in-image symlink\n' });
    // Each volume is a mount of its own, at its path resolved inside the rootfs (runc's securejoin).
    const mounts = (await exec(id, ['cat', '/proc/self/mountinfo'])).out;
    for (const path of ['/var/lib/app', '/srv/real', victim]) expect(mounts).toContain(` ${path} `);
    expect((await exec(id, ['ls', '-A', victim])).out).toBe('');

    // On the host: the volumes are directories under the container's, the write landed there, the
    // xattr came along, and nothing of the victim (reached only by following a symlink) was copied.
    const volumesDir = join(env.daemon.root, 'containers', id, 'volumes');
    const seeded = walk(volumesDir);
    const app = seeded.find((p) => p.endsWith('/shipped.txt'));
    expect(app).toBeDefined();
    const appDir = join(app!, '..');
    expect(readFileSync(join(appDir, 'new'), 'utf8')).toBe('mine\n');
    expect(lgetxattr(appDir, 'user.seeded')?.toString()).toBe('yes');
    expect(seeded.filter((p) => p.includes('host-secret'))).toEqual([]);
    expect(readdirSync(victim)).toEqual(['host-secret']);
    expect(readFileSync(join(victim, 'host-secret'), 'utf8')).toBe('precious');
  });

  it('fails CreateContainer for a volume that is a file in the image and leaves nothing behind', async () => {
    const { podId, config: pod } = await env.runPod('file-volume');
    const containersDir = join(env.daemon.root, 'containers');
    const before = readdirSync(containersDir);
    const err = await callError(env.create(podId, pod, 'app', SLEEPER, { image: { image: FILE_VOLUME_IMAGE } }));
    expect(err.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(err.details).toContain('image volume /data: it is not a directory in the image');
    expect(readdirSync(containersDir)).toEqual(before);
    expect((await env.client.runtime.ListContainers({ filter: { pod_sandbox_id: podId } })).containers).toEqual([]);
  });
});

describe('ignore_image_defined_volumes = true', () => {
  let env: BerthEnv;

  beforeAll(async () => {
    env = await createBerthEnv({ criToml: 'ignore_image_defined_volumes = true' });
    await env.start();
    await importImage(env, APP_IMAGE, appEntries(makeVictim(env)), ['/var/lib/app', '/data', '/outside']);
  });

  afterAll(async () => {
    await env?.close();
  });

  it('leaves the volume paths in the rootfs, as containerd does', async () => {
    const { podId, config: pod } = await env.runPod('ignored');
    const id = await env.create(podId, pod, 'app', SLEEPER, { image: { image: APP_IMAGE } });
    await env.client.runtime.StartContainer({ container_id: id });
    const r = await env.client.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', 'cat /var/lib/app/shipped.txt; grep -c " /var/lib/app " /proc/self/mountinfo'], timeout: '30' });
    expect(r.stdout.toString()).toBe('from the image\n0\n');
  });
});
