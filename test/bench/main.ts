// `make bench`: berth and a private containerd 1.6 side by side in one run, driven by the same CRI
// client code, peers alternating per iteration. Prints one table (or the JSON) and writes
// <repo>/.bench/bench-<timestamp>.json and latest.json. Everything started is undone at the end,
// on failure and on SIGINT, through one LIFO cleanup stack.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../internal/api/cri';
import { testImages } from '../harness/images';
import { parseBenchArgs, USAGE, type BenchOptions, type ScenarioName } from './args';
import { CleanupStack } from './cleanup';
import { Aborted } from './errors';
import { mountPointsUnder } from './mounts';
import { NetnsLedger } from './netns';
import { importBaseImages, startPeers } from './peers/start';
import { hasErrors, hostInfo, renderTable, writeReport, type BenchReport, type Row } from './report';
import { concurrency } from './scenarios/concurrency';
import { exec } from './scenarios/exec';
import { floor } from './scenarios/floor';
import { imageImport } from './scenarios/image_import';
import { imagePull } from './scenarios/image_pull';
import { lifecycle } from './scenarios/lifecycle';
import { memory, NODE_FLOOR_FIGURE, withOwnShares } from './scenarios/memory';
import { restart } from './scenarios/restart';
import { scale } from './scenarios/scale';
import { stats } from './scenarios/stats';
import type { Scenario, ScenarioEnv } from './scenarios/scenario';

// Memory first, while the daemons are still idle; the floor before the lifecycle it is compared with;
// scale after the small-pod scenarios; restart last, since it replaces the daemons' processes.
const SCENARIOS: Record<ScenarioName, Scenario> = {
  memory,
  floor,
  lifecycle,
  exec,
  concurrency,
  stats,
  scale,
  import: imageImport,
  pull: imagePull,
  restart,
};
const NEEDS_PODS: readonly ScenarioName[] = ['memory', 'lifecycle', 'exec', 'concurrency', 'stats', 'scale', 'restart'];

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** Puts the floor figures beside the lifecycle's StartContainer rows, and the Node floor beside the daemons' RSS. */
function attachFloor(rows: Row[]): void {
  const floorOf = (figure: string) => rows.find((r) => r.scenario === 'floor' && r.figure === figure)?.floor;
  const nodeFloor = rows.find((r) => r.scenario === 'memory' && r.figure === NODE_FLOOR_FIGURE)?.berth;
  for (const row of rows) {
    // The shims are the same binary, one per pod, under both daemons: berthd's Node floor is the
    // floor of its daemon+shims figure too.
    if (row.scenario === 'memory' && /^RSS .*, daemon(\+shims)?$/.test(row.figure) && nodeFloor && 'value' in nodeFloor) row.floor = nodeFloor.value;
    if (row.scenario !== 'lifecycle') continue;
    if (row.figure === 'StartContainer p50') row.floor = floorOf('runc create+start (p50)');
    if (row.figure === 'StartContainer p99') row.floor = floorOf('runc create+start (p99)');
  }
}

/** Rows of one scenario together, in the order scenarios first appear (scale adds memory rows). */
function groupByScenario(rows: readonly Row[]): Row[] {
  const order = [...new Set(rows.map((r) => r.scenario))];
  return order.flatMap((scenario) => rows.filter((r) => r.scenario === scenario));
}

async function runScenarios(opts: BenchOptions, cleanup: CleanupStack, aborted: () => boolean): Promise<{ rows: Row[]; notes: string[] }> {
  const runId = randomBytes(3).toString('hex');
  const tmpDir = mkdtempSync(join(tmpdir(), 'berth-bench-'));
  cleanup.push(`temp dir ${tmpDir}`, () => {
    const mounted = mountPointsUnder(tmpDir);
    if (mounted.length > 0) throw new Error(`kept ${tmpDir}: still mounted ${mounted.join(', ')}`);
    rmSync(tmpDir, { recursive: true, force: true });
  });
  const netns = new NetnsLedger();
  cleanup.push('pod netns', () => void netns.sweep());
  const notes: string[] = [];
  const images = await testImages();
  // The floor needs no daemon: a floor-only run starts none.
  const needsPeers = opts.only.some((s) => s !== 'floor');
  const { peers, unavailable } = needsPeers ? await startPeers(tmpDir, runId, cleanup, log) : { peers: [], unavailable: {} };
  if (opts.only.some((s) => NEEDS_PODS.includes(s))) {
    await importBaseImages(peers, [images.pauseOci, images.busyboxOci], (line) => {
      log(line);
      notes.push(line);
    });
  }
  const env: ScenarioEnv = {
    peers,
    unavailable,
    ctx: { runId, netns, aborted },
    iterations: opts.iterations,
    rounds: opts.rounds,
    restarts: opts.restarts,
    scalePods: opts.scalePods,
    steadySeconds: opts.steadySeconds,
    scaleRounds: opts.scaleRounds,
    images,
    cleanup,
    tmpDir,
    log: (line) => {
      log(line);
      notes.push(line);
    },
  };
  const rows: Row[] = [];
  for (const name of Object.keys(SCENARIOS) as ScenarioName[]) {
    if (!opts.only.includes(name)) continue;
    if (aborted()) throw new Aborted();
    log(`scenario ${name}...`);
    rows.push(...(await SCENARIOS[name].run(env)));
  }
  attachFloor(rows);
  return { rows: groupByScenario(withOwnShares(rows)), notes };
}

async function main(): Promise<number> {
  const parsed = parseBenchArgs(process.argv.slice(2));
  if (parsed === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const opts = parsed;
  const cleanup = new CleanupStack();
  // First signal: let the step in flight finish (it undoes its own pod), then clean up and exit.
  // Second signal: clean up right away.
  let interrupted = false;
  const onSignal = (sig: NodeJS.Signals) => {
    if (!interrupted) {
      interrupted = true;
      log(`${sig}: finishing the current step, then cleaning up (send again to clean up now)`);
      return;
    }
    log(`${sig}: cleaning up now`);
    void cleanup.runAll().then((failures) => {
      for (const f of failures) log(`cleanup: ${f}`);
      process.exit(130);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const startedAt = new Date().toISOString();
  let result: { rows: Row[]; notes: string[] } | undefined;
  let failure: unknown;
  try {
    result = await runScenarios(opts, cleanup, () => interrupted);
  } catch (err) {
    failure = err;
  }
  const cleanupFailures = await cleanup.runAll();
  for (const f of cleanupFailures) log(`cleanup: ${f}`);
  if (interrupted) {
    log('interrupted: no report written');
    return 130;
  }
  if (failure !== undefined || result === undefined) {
    if (failure instanceof Aborted) return 130;
    log(`failed: ${failure instanceof Error ? (failure.stack ?? failure.message) : String(failure)}`);
    return 1;
  }
  const report: BenchReport = {
    startedAt,
    finishedAt: new Date().toISOString(),
    host: hostInfo(),
    options: { ...opts },
    rows: result.rows,
    notes: [...result.notes, ...cleanupFailures.map((f) => `cleanup: ${f}`)],
  };
  const path = writeReport(repoRoot(), report);
  if (opts.jsonOnly) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else process.stdout.write(`${renderTable(report.rows)}\n\nwritten: ${path}\n`);
  return hasErrors(report.rows) || cleanupFailures.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    log(err instanceof Error ? err.message : String(err));
    process.stderr.write(USAGE);
    process.exitCode = 2;
  },
);
