// A pod whose RunPodSandbox has not answered is nobody's to see, as with containerd (which adds a
// sandbox to its store only once it runs): not listed, its ID unknown to status, stop and remove.
// Before, it was listed NOTREADY, and a RemovePodSandbox of it waited for the creation and then
// removed it, so RunPodSandbox answered OK with the ID of a pod already gone. Here the pause's
// `runc create` waits (a wrapper) while the pod is looked for.
import { chmodSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { callError } from '../../harness/cri_client';
import { createBerthEnv, deadline, SLEEPER, type BerthEnv } from '../recovery/berth_env';
import { leaks } from '../recovery/host_state';
import { until } from '../recovery/probes';
import { runtimeHandlersToml } from '../../harness/berth_env';

jest.setTimeout(180_000);

describe('a pod in creation', () => {
  let env: BerthEnv;
  const file = (name: string) => join(env.dir, name);

  beforeAll(async () => {
    env = await createBerthEnv({
      extraToml: (dir) => runtimeHandlersToml({ 'held-create': { binaryName: join(dir, 'held-create-runc') } }),
    });
    // While "hold" exists, `runc create` says it began (the "creating" file) and waits.
    writeFileSync(
      file('held-create-runc'),
      `#!/bin/sh\nfor a; do [ "$a" = create ] && { touch ${JSON.stringify(file('creating'))}; while [ -e ${JSON.stringify(file('hold'))} ]; do sleep 0.05; done; }; done\nexec runc "$@"\n`,
    );
    chmodSync(file('held-create-runc'), 0o755);
    await env.start();
  });
  afterAll(async () => {
    rmSync(file('hold'), { force: true });
    await env?.close();
  });

  it('is not listed, and status, stop and remove do not find it; once RunPodSandbox answers it is READY', async () => {
    const config = env.podConfig('in-creation');
    writeFileSync(file('hold'), '');
    let run: Promise<{ pod_sandbox_id: string }> | undefined;
    let removed: Promise<unknown> | undefined;
    let id = '';
    try {
      run = env.client.runtime.RunPodSandbox({ config, runtime_handler: 'held-create' }, deadline());
      await until('the pause container is being created', () => existsSync(file('creating')));
      const sandboxDirs = readdirSync(join(env.host().state, 'sandboxes'));
      expect(sandboxDirs).toHaveLength(1);
      id = sandboxDirs[0]!;

      expect((await env.client.runtime.ListPodSandbox({})).items).toEqual([]);
      expect((await env.client.runtime.ListPodSandbox({ filter: { id } })).items).toEqual([]);
      expect((await callError(env.client.runtime.PodSandboxStatus({ pod_sandbox_id: id }, deadline()))).code).toBe(GrpcStatus.NOT_FOUND);
      expect((await callError(env.client.runtime.PodSandboxStatus({ pod_sandbox_id: id.slice(0, 12) }, deadline()))).code).toBe(
        GrpcStatus.NOT_FOUND,
      );
      expect((await callError(env.create(id, config, 'early', SLEEPER))).code).toBe(GrpcStatus.NOT_FOUND);
      // As for any ID it does not know: OK, and nothing done.
      await env.client.runtime.StopPodSandbox({ pod_sandbox_id: id }, deadline());
      removed = env.client.runtime.RemovePodSandbox({ pod_sandbox_id: id }, deadline());
    } finally {
      rmSync(file('hold'), { force: true });
    }
    expect((await run).pod_sandbox_id).toBe(id);
    await removed;
    const { status } = await env.client.runtime.PodSandboxStatus({ pod_sandbox_id: id }, deadline());
    expect(status?.state).toBe('SANDBOX_READY');
    expect((await env.client.runtime.ListPodSandbox({})).items.map((p) => [p.id, p.state])).toEqual([[id, 'SANDBOX_READY']]);

    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: id }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });
});
