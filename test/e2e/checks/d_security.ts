// d. securityContext as the container's own first process sees it (printed to its log, read back
// through /containerLogs): user, group, fsGroup and supplementalGroups, a read-only root
// filesystem, no_new_privs, an empty capability set, seccomp filter mode; and a privileged pod.
import { readFileSync } from 'node:fs';
import { expect, startReadyPod, type Check } from '../check';
import { fullName, manifest, NAMESPACE } from '../pods';

/** Prints what the checks compare, one "key=value" per line, then sleeps. */
const REPORT = [
  'echo "id=$(id)"',
  'grep -E "^(CapEff|NoNewPrivs|Seccomp):" /proc/self/status | sed -E "s/:[[:space:]]+/=/"',
  'if touch /tmp/rootfs-probe 2>/dev/null; then echo rootfs=writable; else echo rootfs=readonly; fi',
  'if [ -d /data ]; then echo "data=$(stat -c "%g %A" /data)"; touch /data/f && echo "datafile=$(stat -c %g /data/f)"; fi',
  'echo done',
  'exec sleep 3600',
].join('; ');

async function reportOf(ctx: Parameters<Check['run']>[0], pod: string, container: string): Promise<Map<string, string>> {
  let logs = '';
  for (let i = 0; i < 50 && !logs.includes('done\n'); i++) {
    logs = await ctx.kubelet.api.containerLogs(NAMESPACE, fullName(pod), container);
    if (!logs.includes('done\n')) await new Promise((r) => setTimeout(r, 100));
  }
  const map = new Map<string, string>();
  for (const line of logs.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) map.set(line.slice(0, eq), line.slice(eq + 1));
  }
  map.set('_raw', logs);
  return map;
}

export const restrictedContext: Check = {
  id: 'd1',
  title: 'runAsUser/Group, fsGroup, supplementalGroups, readOnlyRootFilesystem, no privilege escalation, drop ALL, seccomp RuntimeDefault',
  async run(ctx) {
    const name = 'restricted';
    await startReadyPod(
      ctx,
      manifest({
        name,
        spec: {
          securityContext: { runAsUser: 1000, runAsGroup: 3000, fsGroup: 2000, supplementalGroups: [4000], seccompProfile: { type: 'RuntimeDefault' } },
          volumes: [{ name: 'data', emptyDir: {} }],
          containers: [
            {
              name: 'main',
              command: ['sh', '-c', REPORT],
              volumeMounts: [{ name: 'data', mountPath: '/data' }],
              securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
            },
          ],
        },
      }),
    );
    const r = await reportOf(ctx, name, 'main');
    const raw = JSON.stringify(r.get('_raw'));
    const id = r.get('id') ?? '';
    expect(/^uid=1000\(berth\) gid=3000 groups=/.test(id), `id: ${id} (${raw})`);
    const groups = new Set((/groups=(.*)$/.exec(id)?.[1] ?? '').split(',').map((g) => g.replace(/\(.*\)/, '')));
    expect(groups.has('2000') && groups.has('4000') && groups.has('3000'), `groups must hold 2000 (fsGroup), 3000 and 4000: ${id}`);
    expect(r.get('CapEff') === '0000000000000000', `CapEff: ${r.get('CapEff')}`);
    expect(r.get('NoNewPrivs') === '1', `NoNewPrivs: ${r.get('NoNewPrivs')}`);
    expect(r.get('Seccomp') === '2', `Seccomp mode: ${r.get('Seccomp')}`);
    expect(r.get('rootfs') === 'readonly', `root filesystem: ${r.get('rootfs')}`);
    expect(r.get('data')?.startsWith('2000 drwxrwsrwx') === true, `emptyDir with fsGroup: ${r.get('data')}`);
    expect(r.get('datafile') === '2000', `file made in the fsGroup volume has group ${r.get('datafile')}`);
  },
};

export const privilegedPod: Check = {
  id: 'd2',
  title: 'privileged container: all capabilities, no seccomp, host devices',
  async run(ctx) {
    const name = 'privileged';
    await startReadyPod(ctx, manifest({ name, spec: { containers: [{ name: 'main', command: ['sh', '-c', `ls /dev/kmsg >/dev/null 2>&1 && echo kmsg=yes; ${REPORT}`], securityContext: { privileged: true } }] } }));
    const r = await reportOf(ctx, name, 'main');
    // Every capability the host's root has (its bounding set; a test machine may lack some).
    const hostBounding = /^CapBnd:\s+([0-9a-f]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    expect(r.get('CapEff') === hostBounding, `CapEff ${r.get('CapEff')}: expected the host's bounding set ${hostBounding}`);
    expect(r.get('Seccomp') === '0', `Seccomp mode: ${r.get('Seccomp')}`);
    expect(r.get('NoNewPrivs') === '0', `NoNewPrivs: ${r.get('NoNewPrivs')}`);
    expect(r.get('kmsg') === 'yes', `host device /dev/kmsg not visible: ${JSON.stringify(r.get('_raw'))}`);
    expect(r.get('rootfs') === 'writable', `root filesystem: ${r.get('rootfs')}`);
  },
};
