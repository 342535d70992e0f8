// A shim that starts, takes the connection and never answers (a wedged shim). RunPodSandbox used
// to wait 120 s for its Create and another 120 s for the undo's Delete, past the kubelet's own
// deadline, while the half-made pod stood listed NotReady. Now the Create is waited for no longer
// than the caller waits, the undo gives the shim a short while for its Delete, and the pod is gone
// soon after. A shim that is only slow (its runc create outlasts the caller) answers that Delete
// and is shut down as usual: none is left running.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { callError } from '../../harness/cri_client';
import { createBerthEnv, deadline, type BerthEnv } from '../recovery/berth_env';
import { leaks, shimsOf } from '../recovery/host_state';
import { until } from '../recovery/probes';
import { runtimeHandlersToml } from '../../harness/berth_env';

jest.setTimeout(180_000);

describe('a shim that never answers', () => {
  let env: BerthEnv;
  const file = (name: string) => join(env.dir, name);

  beforeAll(async () => {
    env = await createBerthEnv({
      extraToml: (dir) =>
        runtimeHandlersToml({
          mute: { runtimeType: join(dir, 'mute-shim') },
          'slow-create': { binaryName: join(dir, 'slow-create-runc') },
          'half-create': { binaryName: join(dir, 'half-create-runc') },
        }),
    });
    // runc create takes 4 s more than usual.
    writeFileSync(file('slow-create-runc'), '#!/bin/sh\nfor a; do [ "$a" = create ] && sleep 4; done\nexec runc "$@"\n');
    chmodSync(file('slow-create-runc'), 0o755);
    // runc create gets as far as making the container's cgroups (in every hierarchy, from the
    // bundle's spec), then takes longer than its caller waits: the shim kills it there.
    writeFileSync(
      file('half-create-runc'),
      `#!/bin/sh
case " $* " in
*" create "*)
  prev=; for a; do [ "$prev" = --bundle ] && bundle=$a; prev=$a; done
  path=$(node -e 'process.stdout.write(require(process.argv[1]).linux.cgroupsPath)' "$bundle/config.json")
  for h in /sys/fs/cgroup/*/; do mkdir -p "$h$path"; done
  exec sleep 1000;;
esac
exec runc "$@"
`,
    );
    chmodSync(file('half-create-runc'), 0o755);
    // `start`: a listener that accepts and never answers, in the background, its address printed.
    // `delete`: ends that listener.
    const sock = file('mute.sock');
    const pidFile = file('mute.pid');
    const listener = `require('net').createServer(() => {}).listen(${JSON.stringify(sock)})`;
    writeFileSync(
      file('mute-shim'),
      `#!/bin/sh
case " $* " in
*" start "*)
  rm -f ${sock}
  node -e ${JSON.stringify(listener)} </dev/null >/dev/null 2>&1 &
  echo $! > ${pidFile}
  while [ ! -S ${sock} ]; do sleep 0.05; done
  echo unix://${sock};;
*" delete "*) [ -f ${pidFile} ] && kill "$(cat ${pidFile})" 2>/dev/null; rm -f ${pidFile};;
esac
exit 0
`,
    );
    chmodSync(file('mute-shim'), 0o755);
    await env.start();
  });
  afterAll(async () => {
    if (env && existsSync(file('mute.pid'))) process.kill(Number(readFileSync(file('mute.pid'), 'utf8')), 'SIGTERM');
    await env?.close();
  });

  it("RunPodSandbox gives up at the caller's deadline, and the half-made pod is undone soon after", async () => {
    const err = await callError(env.client.runtime.RunPodSandbox({ config: env.podConfig('mute'), runtime_handler: 'mute' }, deadline(5_000)));
    expect(err.code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    // Within until()'s 60 s: the Create's own bound alone was 120 s.
    await until('the pod is undone', () => leaks(env.host()).length === 0 && !existsSync(file('mute.pid')));
    expect(env.daemon.stderr()).toMatch(/ttrpc containerd.task.v2.Task\/Create: no answer within \d+ms/);
    expect(leaks(env.host())).toEqual([]);
  });

  it("a slow shim's Create cut short by the caller's deadline: the pod is undone and its shim shut down", async () => {
    const err = await callError(
      env.client.runtime.RunPodSandbox({ config: env.podConfig('slow-create'), runtime_handler: 'slow-create' }, deadline(2_000)),
    );
    expect(err.code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    await until('the pod is undone', () => leaks(env.host()).length === 0 && shimsOf(env.daemon.socket).length === 0);
    expect(leaks(env.host())).toEqual([]);
  });

  it('a runc create killed by the deadline after it made the cgroups: the undo removes them too', async () => {
    const err = await callError(
      // Long enough for the wrapper to make the cgroups on a busy machine; it then hangs for good.
      env.client.runtime.RunPodSandbox({ config: env.podConfig('half-create'), runtime_handler: 'half-create' }, deadline(10_000)),
    );
    expect(err.code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    await until('the pod is undone', () => leaks(env.host()).length === 0 && shimsOf(env.daemon.socket).length === 0);
    expect(leaks(env.host())).toEqual([]);
    expect(env.daemon.stderr()).toContain('removed what an interrupted runc create left');
  });
});
