// a. Init containers, an emptyDir shared by two containers; env (with $(VAR) expansion), args and
// workingDir: what the containers print, read back through the kubelet's /containerLogs and /run.
import { expect, startReadyPod, type Check } from '../check';
import { containerStatus, fullName, manifest, NAMESPACE } from '../pods';

export const initAndEmptyDir: Check = {
  id: 'a1',
  title: 'init containers + emptyDir shared by two containers',
  async run(ctx) {
    const name = 'init-share';
    const shared = [{ name: 'shared', mountPath: '/shared' }];
    const pod = await startReadyPod(
      ctx,
      manifest({
        name,
        spec: {
          volumes: [{ name: 'shared', emptyDir: {} }],
          initContainers: [
            { name: 'init-1', command: ['sh', '-c', 'echo from-init-1 > /shared/init.txt'], volumeMounts: shared },
            { name: 'init-2', command: ['sh', '-c', 'cat /shared/init.txt > /shared/init2.txt && echo from-init-2 >> /shared/init2.txt'], volumeMounts: shared },
          ],
          containers: [
            { name: 'writer', command: ['sh', '-c', 'echo from-writer > /shared/writer.txt; exec sleep 3600'], volumeMounts: shared },
            { name: 'reader', command: ['sh', '-c', 'while [ ! -f /shared/writer.txt ]; do sleep 0.1; done; cat /shared/init2.txt /shared/writer.txt; exec sleep 3600'], volumeMounts: shared },
          ],
        },
      }),
    );
    for (const init of ['init-1', 'init-2']) {
      const t = containerStatus(pod, init)?.state.terminated;
      expect(t?.exitCode === 0 && t.reason === 'Completed', `${init}: expected terminated Completed exit 0, got ${JSON.stringify(containerStatus(pod, init)?.state)}`);
    }
    const want = 'from-init-1\nfrom-init-2\nfrom-writer\n';
    let logs = '';
    for (let i = 0; i < 50 && logs !== want; i++) {
      logs = await ctx.kubelet.api.containerLogs(NAMESPACE, fullName(name), 'reader');
      if (logs !== want) await new Promise((r) => setTimeout(r, 100));
    }
    expect(logs === want, `reader logs: expected ${JSON.stringify(want)}, got ${JSON.stringify(logs)}`);
    const seen = await ctx.kubelet.api.run(NAMESPACE, fullName(name), 'writer', ['cat', '/shared/init2.txt']);
    expect(seen === 'from-init-1\nfrom-init-2\n', `/run cat in writer: got ${JSON.stringify(seen)}`);
  },
};

export const envArgsWorkingDir: Check = {
  id: 'a2',
  title: 'env ($(VAR) expansion), command + args, workingDir',
  async run(ctx) {
    const name = 'env-args';
    await startReadyPod(
      ctx,
      manifest({
        name,
        spec: {
          containers: [
            {
              name: 'main',
              command: ['sh', '-c'],
              args: ['echo "FOO=$FOO BAR=$BAR pwd=$(pwd) arg0=$0 arg1=$1"; exec sleep 3600', 'zero', 'one two'],
              env: [
                { name: 'FOO', value: 'foo value' },
                { name: 'BAR', value: '$(FOO)-expanded' },
              ],
              workingDir: '/work/dir',
            },
          ],
        },
      }),
    );
    const want = 'FOO=foo value BAR=foo value-expanded pwd=/work/dir arg0=zero arg1=one two\n';
    let logs = '';
    for (let i = 0; i < 50 && logs !== want; i++) {
      logs = await ctx.kubelet.api.containerLogs(NAMESPACE, fullName(name), 'main');
      if (logs !== want) await new Promise((r) => setTimeout(r, 100));
    }
    expect(logs === want, `logs: expected ${JSON.stringify(want)}, got ${JSON.stringify(logs)}`);
  },
};
