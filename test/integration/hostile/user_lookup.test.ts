// A hostile image cannot make berthd resolve its user from a host file: /etc (or any component) that
// is a symlink to a host directory is resolved inside the image's layers, as containerd resolves it
// inside the rootfs, so CreateContainer fails "not found" instead of taking the host's entry. Ids
// past MaxInt32, from the image or the request, are refused (CVE-2024-40635).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { buildImage, type LayerSpec } from '../../../hack/images/image';
import { writeOciArchive } from '../../../hack/images/oci-archive';
import type { TarEntry } from '../../../hack/images/tarball';
import { callError } from '../../harness/cri_client';
import { createBerthEnv, type BerthEnv } from '../recovery/berth_env';

jest.setTimeout(120_000);

const layer = (entries: TarEntry[]): LayerSpec => ({ entries, compression: 'none', createdBy: 'test' });
const file = (path: string, text: string): TarEntry => ({ kind: 'file', path, mode: 0o644, data: Buffer.from(text) });

describe('user lookup in a hostile image', () => {
  let env: BerthEnv;
  /** The host directory hostile images point /etc at; "mallory" exists only there. */
  let victimEtc: string;

  /** Builds and imports a two-layer image whose top layer is `top`. */
  async function importImage(name: string, top: TarEntry[], user?: string): Promise<string> {
    const built = await buildImage({
      name,
      layers: [layer([file('usr/share/base/passwd', 'carol:x:3000:3001::/:/bin/sh\n'), file('bin/sh', '')]), layer(top)],
      config: { Env: ['PATH=/bin'], Cmd: ['sh'], ...(user === undefined ? {} : { User: user }) },
    });
    const archive = join(env.dir, `${name.replace(/[/:]/g, '_')}.tar`);
    await writeOciArchive(archive, built);
    await env.client.admin.ImportImage({ path: archive, name: '' });
    return name;
  }

  async function createWith(podName: string, image: string, securityContext = {}): Promise<string> {
    const { podId, config } = await env.runPod(podName);
    return env.create(podId, config, 'app', ['sh'], { image: { image }, linux: { security_context: securityContext } });
  }

  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
    victimEtc = join(env.dir, 'victim', 'etc');
    mkdirSync(victimEtc, { recursive: true });
    writeFileSync(join(victimEtc, 'passwd'), 'mallory:x:4242:4242::/:/bin/sh\n');
    writeFileSync(join(victimEtc, 'group'), 'mallory:x:4242:\n');
  });

  afterAll(async () => {
    await env?.close();
  });

  it('does not resolve the image User through an absolute /etc symlink to the host', async () => {
    const image = await importImage('berth.test/hostile/etc-abs:1', [{ kind: 'symlink', path: 'etc', target: victimEtc }], 'mallory');
    const err = await callError(createWith('etc-abs', image));
    expect(err.details).toContain('"mallory" not found');
  });

  it('does not resolve run_as_username through a ".." /etc symlink to the host', async () => {
    const target = `${'../'.repeat(40)}${victimEtc.slice(1)}`;
    const image = await importImage('berth.test/hostile/etc-dotdot:1', [{ kind: 'symlink', path: 'etc', target }]);
    const err = await callError(createWith('etc-dotdot', image, { run_as_username: 'mallory' }));
    expect(err.details).toContain('"mallory" not found');
  });

  it('still follows an /etc symlink that stays inside the image, across layers', async () => {
    const image = await importImage('berth.test/hostile/etc-inside:1', [{ kind: 'symlink', path: 'etc', target: '/usr/share/base' }], 'carol');
    const id = await createWith('etc-inside', image);
    const verbose = await env.client.runtime.ContainerStatus({ container_id: id, verbose: true });
    const spec = (JSON.parse(verbose.info.info!) as { runtimeSpec: { process: { user: { uid: number; gid: number } } } }).runtimeSpec;
    expect(spec.process.user).toMatchObject({ uid: 3000, gid: 3001 });
  });

  it('refuses a numeric image User past MaxInt32', async () => {
    const image = await importImage('berth.test/hostile/uid-max:1', [file('etc/passwd', 'root:x:0:0::/:/bin/sh\n')], '4294967295');
    const err = await callError(createWith('uid-max', image));
    expect(err.details).toContain('invalid USER value "4294967295": uid out of range');
  });

  it('refuses run_as_user past MaxInt32 in the request', async () => {
    const err = await callError(createWith('run-as-max', 'berth.test/hostile/uid-max:1', { run_as_user: { value: '2147483648' } }));
    expect(err.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(err.details).toContain('run_as_user 2147483648 is out of range');
  });
});
