// Closes a container suite and checks it left nothing on the host: no shim serving its berthd, no
// mount under its dir, no cgroup under its parent, no bridge. Throws (failing afterAll) otherwise.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { leftoverCgroups, mountsUnder, shimPidsOf, type ContainerSuite } from '../cri_containers/env';

function bridgeExists(name: string): boolean {
  try {
    execFileSync('ip', ['link', 'show', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function closeSuiteCleanly(s: ContainerSuite | undefined): Promise<void> {
  if (!s) return;
  const { socket, dir } = s.daemon;
  await s.close();
  const debris = {
    shims: shimPidsOf(socket),
    mounts: mountsUnder(dir),
    cgroups: leftoverCgroups(s.cgroupParent),
    bridge: bridgeExists(s.cni.bridge) ? [s.cni.bridge] : [],
    dirs: [dir, s.scratch, s.cni.root].filter((d) => existsSync(d)),
  };
  if (Object.values(debris).some((list) => list.length > 0)) throw new Error(`suite left debris: ${JSON.stringify(debris)}`);
}
