// g. Log rotation by the kubelet (containerLogMaxSize 64Ki, checked every 10 s): the kubelet
// renames 0.log and calls ReopenContainerLog; older rotated files are gzipped. Every line the
// container wrote must be in exactly one file, in order, none lost or duplicated.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, startReadyPod, type Check } from '../check';
import { fullName, manifest, NAMESPACE } from '../pods';

const LINES = 6000;
const PAD = 'x'.repeat(100);

/** The container's log files, oldest first: rotated ones by their timestamp suffix, then 0.log. */
function logFiles(dir: string): string[] {
  const names = readdirSync(dir).filter((n) => n.startsWith('0.log'));
  const rotated = names.filter((n) => n !== '0.log').sort((a, b) => a.replace(/\.gz$/, '').localeCompare(b.replace(/\.gz$/, '')));
  return [...rotated, ...(names.includes('0.log') ? ['0.log'] : [])];
}

export const logRotation: Check = {
  id: 'g1',
  title: `log rotation (containerLogMaxSize 64Ki): ${LINES} lines, none lost or duplicated`,
  async run(ctx) {
    const name = 'rotation';
    // About 28 KB/s of log: a rotation on most of the kubelet's 10 s passes.
    const script = `i=0; while [ $i -lt ${LINES} ]; do echo "line $i ${PAD}"; i=$((i+1)); if [ $((i % 100)) = 0 ]; then sleep 0.5; fi; done; echo finished; exec sleep 3600`;
    const pod = await startReadyPod(ctx, manifest({ name, spec: { containers: [{ name: 'main', command: ['sh', '-c', script] }] } }));
    const podDir = readdirSync('/var/log/pods').find((d) => d.startsWith(`${NAMESPACE}_${fullName(name)}_`));
    expect(podDir !== undefined, `no /var/log/pods dir for the pod (uid ${pod.metadata.uid})`);
    const dir = join('/var/log/pods', podDir!, 'main');
    const giveUp = Date.now() + 180_000;
    while (!readFileSync(join(dir, '0.log'), 'utf8').includes(' finished\n')) {
      if (Date.now() > giveUp) throw new Error('the writer never finished');
      await new Promise((r) => setTimeout(r, 1000));
    }
    const files = logFiles(dir);
    const numbers: number[] = [];
    const bad: string[] = [];
    for (const f of files) {
      const raw = readFileSync(join(dir, f));
      const text = (f.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
      for (const line of text.split('\n')) {
        if (line === '') continue;
        // CRI log line: <RFC3339Nano> <stream> <P|F> <content>
        const m = /^\S+ stdout F (.*)$/.exec(line);
        if (!m) {
          bad.push(`${f}: ${line.slice(0, 120)}`);
          continue;
        }
        if (m[1] === 'finished') continue;
        const n = /^line (\d+) x+$/.exec(m[1]!);
        if (n) numbers.push(Number(n[1]));
        else bad.push(`${f}: ${line.slice(0, 120)}`);
      }
    }
    expect(files.length >= 2, `no rotation happened: files ${files.join(', ')}`);
    expect(bad.length === 0, `malformed lines: ${bad.slice(0, 3).join(' | ')}`);
    const firstWrong = numbers.findIndex((n, i) => n !== i);
    expect(
      numbers.length === LINES && firstWrong === -1,
      `${numbers.length} lines read across ${files.join(', ')}; first out of sequence at index ${firstWrong}: ${numbers.slice(Math.max(0, firstWrong - 2), firstWrong + 3).join(',')}`,
    );
    // kubectl logs still works after rotations: it reads the current file.
    const tail = await ctx.kubelet.api.containerLogs(NAMESPACE, fullName(name), 'main', 'tailLines=1');
    expect(tail === 'finished\n', `/containerLogs tailLines=1 after rotation: ${JSON.stringify(tail)}`);
  },
};
