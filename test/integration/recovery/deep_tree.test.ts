// Trees deeper than PATH_MAX in what berthd deletes: a container can build one in its writable
// layer, a hostile layer can bring one. Node's rm walks by path and fails on them half-way
// (ENAMETOOLONG); left in the trash, such a tree used to stop every later start of berthd, whose
// start-up empties the trash. Here the container's tree is deleted after RemoveContainer, and deep
// trees a killed berthd left in its three trash directories are deleted at the next start, which
// serves.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDeepTree } from '../../harness/deep_tree';
import { createBerthEnv, type BerthEnv } from './berth_env';
import { until } from './probes';

jest.setTimeout(300_000);

/** The container's directory names. */
const NAME = 'd'.repeat(200);

const entries = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir) : []);

describe('trees deeper than PATH_MAX', () => {
  let env: BerthEnv;

  afterAll(async () => {
    await env?.close();
  });

  it('a container builds one in its writable layer: RemoveContainer deletes it, and berthd starts again', async () => {
    env = await createBerthEnv();
    await env.start();
    const { podId, config } = await env.runPod('deep-tree');
    // A shell's `cd` stops where the path would pass PATH_MAX, so the container builds two trees of
    // 19 levels (3.8 kB of path each) and moves one to the bottom of the other: 7.6 kB deep.
    const script = [
      `tree() { mkdir "/$1" && cd "/$1" && i=0 && while [ $i -lt 19 ]; do mkdir ${NAME} && cd ${NAME} || exit 1; i=$((i+1)); done; echo deep > leaf; }`,
      `tree a; tree b; p=/a; i=0; while [ $i -lt 19 ]; do p=$p/${NAME}; i=$((i+1)); done; mv /b "$p/" && echo moved`,
    ].join('\n');
    const id = await env.create(podId, config, 'builder', ['sh', '-c', script]);
    await env.client.runtime.StartContainer({ container_id: id });
    const exited = await env.waitState(id, 'CONTAINER_EXITED');
    expect(exited.exit_code).toBe(0);
    expect(readFileSync(exited.log_path, 'utf8')).toContain('stdout F moved');
    const snapshots = join(env.daemon.root, 'overlayfs', 'snapshots');
    const before = entries(snapshots);

    await env.client.runtime.RemoveContainer({ container_id: id });
    const trash = join(env.daemon.root, 'overlayfs', 'trash');
    await until('the trash to be emptied', () => entries(trash).length === 0);
    expect(entries(snapshots)).toHaveLength(before.length - 1);
    expect(env.daemon.stderr()).not.toContain('deleting from the trash failed');

    await env.stop();
    await env.start();
    expect((await env.client.runtime.Version({})).runtime_name).toBe('berth');
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId });
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId });
  });

  it('deep trees a killed berthd left in its trash directories are deleted at the next start', async () => {
    await env.stop();
    const trashes = [join(env.daemon.root, 'overlayfs', 'trash'), join(env.daemon.root, 'trash'), join(env.daemon.state, 'trash')];
    for (const trash of trashes) buildDeepTree(join(trash, 'left-by-a-kill'));

    await env.start();
    expect((await env.client.runtime.Version({})).runtime_name).toBe('berth');
    // Deleted in the background once berthd serves.
    await until('the trashes to be emptied', () => trashes.every((trash) => entries(trash).length === 0));
    expect(env.daemon.stderr()).not.toMatch(/emptying the trash failed|deleting from the trash failed/);
  });
});
