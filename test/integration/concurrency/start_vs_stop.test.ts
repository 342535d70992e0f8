// StartContainer racing StopPodSandbox. A start that passed its pod's readiness check was still
// CREATED when the stop looked for running containers, so the stop skipped it, killed the pause,
// tore the network down and answered OK, and then the container ran on in the stopped pod. Here
// `runc start` waits (made slow by a wrapper) while the stop runs, so that order happens every time.
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBerthEnv, deadline, SLEEPER, type BerthEnv } from '../recovery/berth_env';
import { leaks } from '../recovery/host_state';
import { until } from '../recovery/probes';
import { runtimeHandlersToml } from '../../harness/berth_env';

jest.setTimeout(180_000);

describe('StartContainer racing StopPodSandbox', () => {
  let env: BerthEnv;
  const file = (name: string) => join(env.dir, name);

  beforeAll(async () => {
    env = await createBerthEnv({
      extraToml: (dir) => runtimeHandlersToml({ 'slow-start': { binaryName: join(dir, 'slow-start-runc') } }),
    });
    // While "slow" exists, `runc start` says it began (the "starting" file) and waits a second.
    writeFileSync(
      join(env.dir, 'slow-start-runc'),
      `#!/bin/sh\nfor a; do [ "$a" = start ] && [ -e ${JSON.stringify(join(env.dir, 'slow'))} ] && { touch ${JSON.stringify(join(env.dir, 'starting'))}; sleep 1; }; done\nexec runc "$@"\n`,
    );
    chmodSync(join(env.dir, 'slow-start-runc'), 0o755);
    await env.start();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('a start under way when the stop begins is stopped with the pod; one asked after is refused', async () => {
    const config = env.podConfig('start-vs-stop');
    const { pod_sandbox_id: podId } = await env.client.runtime.RunPodSandbox({ config, runtime_handler: 'slow-start' }, deadline());
    const [first, second] = [await env.create(podId, config, 'first', SLEEPER), await env.create(podId, config, 'second', SLEEPER)];
    writeFileSync(file('slow'), '');
    try {
      const start = env.client.runtime.StartContainer({ container_id: first }, deadline());
      await until('runc start of the first container began', () => existsSync(file('starting')));
      const stop = env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
      await expect(env.client.runtime.StartContainer({ container_id: second }, deadline())).rejects.toMatchObject({ details: expect.stringMatching(/is not running/) });
      await stop;
      await start.catch(() => undefined); // started and then stopped, or refused: either way not running
    } finally {
      rmSync(file('slow'), { force: true });
    }
    const { containers } = await env.client.runtime.ListContainers({ filter: { pod_sandbox_id: podId } });
    expect(containers.map((c) => [c.metadata?.name, c.state]).sort()).toEqual([
      ['first', 'CONTAINER_EXITED'],
      ['second', 'CONTAINER_EXITED'],
    ]);
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });
});
