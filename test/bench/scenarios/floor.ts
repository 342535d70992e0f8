// floor: what StartContainer costs with no daemon at all: the busybox image's layer unpacked into
// a plain rootfs dir, a `runc spec` bundle running the same command, and runc create + runc start
// timed directly (runc delete untimed), N times. Shown beside the lifecycle's StartContainer.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeCgroupTree } from '../cgroups';
import { Aborted } from '../errors';
import { mountPointsUnder } from '../mounts';
import { SLEEPER_COMMAND } from '../pods';
import type { Row } from '../report';
import { msSince, p50, p99 } from '../stats';
import type { Scenario, ScenarioEnv } from './scenario';

export const RUNC_BINARY = 'runc';

interface OciDoc {
  manifests?: Array<{ digest: string }>;
  layers?: Array<{ digest: string }>;
}

const blobPath = (ociDir: string, digest: string) => join(ociDir, 'blobs', 'sha256', digest.replace(/^sha256:/, ''));

/** Unpacks the first image of an OCI archive into `rootfs` (tar detects each layer's compression). */
function unpackImage(archive: string, ociDir: string, rootfs: string): void {
  mkdirSync(ociDir, { recursive: true });
  mkdirSync(rootfs, { recursive: true });
  execFileSync('tar', ['-xf', archive, '-C', ociDir]);
  const index = JSON.parse(readFileSync(join(ociDir, 'index.json'), 'utf8')) as OciDoc;
  const manifest = JSON.parse(readFileSync(blobPath(ociDir, index.manifests![0]!.digest), 'utf8')) as OciDoc;
  for (const layer of manifest.layers ?? []) execFileSync('tar', ['-xf', blobPath(ociDir, layer.digest), '-C', rootfs]);
}

interface RuntimeSpec {
  process: { terminal: boolean; args: string[] };
  root: { path: string; readonly: boolean };
  linux: { cgroupsPath?: string };
}

function writeBundle(bundle: string): void {
  execFileSync(RUNC_BINARY, ['spec'], { cwd: bundle });
  const specPath = join(bundle, 'config.json');
  const spec = JSON.parse(readFileSync(specPath, 'utf8')) as RuntimeSpec;
  spec.process.terminal = false;
  spec.process.args = SLEEPER_COMMAND;
  spec.root = { path: 'rootfs', readonly: false };
  writeFileSync(specPath, JSON.stringify(spec));
}

function setCgroupsPath(bundle: string, cgroupsPath: string): void {
  const specPath = join(bundle, 'config.json');
  const spec = JSON.parse(readFileSync(specPath, 'utf8')) as RuntimeSpec;
  spec.linux.cgroupsPath = cgroupsPath;
  writeFileSync(specPath, JSON.stringify(spec));
}

/** Runs runc with stdio detached (the container inherits none of our pipes); rejects on failure. */
function runc(root: string, logFile: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(RUNC_BINARY, ['--root', root, '--log', logFile, ...args], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else {
        const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-1000) : '';
        reject(new Error(`runc ${args.join(' ')} exited ${code ?? signal}: ${tail}`));
      }
    });
  });
}

async function run(env: ScenarioEnv): Promise<Row[]> {
  const dir = join(env.tmpDir, 'floor');
  const bundle = join(dir, 'bundle');
  const root = join(dir, 'runc-root');
  const logFile = join(dir, 'runc.log');
  mkdirSync(root, { recursive: true });
  mkdirSync(bundle, { recursive: true });
  unpackImage(env.images.busyboxOci, join(dir, 'oci'), join(bundle, 'rootfs'));
  writeBundle(bundle);
  const cgroupParent = `/berth-bench-${env.ctx.runId}-floor`;
  const undoCgroups = env.cleanup.push('floor cgroups', () => removeCgroupTree(cgroupParent));
  const createMs: number[] = [];
  const startMs: number[] = [];
  const totalMs: number[] = [];
  try {
    for (let i = 0; i < env.iterations; i++) {
      if (env.ctx.aborted()) throw new Aborted();
      const id = `berth-bench-floor-${env.ctx.runId}-${i}`;
      setCgroupsPath(bundle, `${cgroupParent}/${id}`);
      const undo = env.cleanup.push(`runc delete ${id}`, () => runc(root, logFile, ['delete', '--force', id]));
      try {
        const t0 = process.hrtime.bigint();
        await runc(root, logFile, ['create', '--bundle', bundle, id]);
        const created = msSince(t0);
        await runc(root, logFile, ['start', id]);
        const total = msSince(t0);
        createMs.push(created);
        startMs.push(total - created);
        totalMs.push(total);
      } finally {
        await undo();
      }
    }
  } finally {
    await undoCgroups();
    const left = mountPointsUnder(dir);
    if (left.length > 0) env.log(`floor: still mounted under ${dir}: ${left.join(', ')}`);
  }
  const none = { na: '(no daemon)' };
  const row = (figure: string, v: number): Row => ({ scenario: 'floor', figure, unit: 'ms', containerd: none, berth: none, floor: v });
  return [
    row('runc create (p50)', p50(createMs)),
    row('runc start (p50)', p50(startMs)),
    row('runc create+start (p50)', p50(totalMs)),
    row('runc create+start (p99)', p99(totalMs)),
  ];
}

export const floor: Scenario = { name: 'floor', run };
