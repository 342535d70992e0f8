// image pull: layers3 pushed to a loopback docker-registry, then pulled (fetch + unpack) through
// each daemon's CRI PullImage over plain http, as a certs.d/<host>/hosts.toml tells it; the image
// is removed between rounds, so every round fetches every blob.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pushImage, startRegistry } from '../../harness/registry';
import { Aborted, RpcFailed } from '../errors';
import type { Peer } from '../peers/peer';
import type { Row } from '../report';
import { hostBaseline, settleHost } from '../settle';
import { p50 } from '../stats';
import { removeImage, waitImage } from './image_store';
import { alternating, PeerSeries, type Scenario, type ScenarioEnv } from './scenario';

const REPO_TAG = 'berth-bench/layers3:latest';

/** hosts.toml sending pulls for `host` to plain http on loopback; returns its dir (to remove). */
function writeHostsToml(peer: Peer, host: string): string {
  const dir = join(peer.certsDir, host);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'hosts.toml'),
    `server = "http://${host}"\n\n[host."http://${host}"]\n  capabilities = ["pull", "resolve"]\n`,
  );
  return dir;
}

async function pull(peer: Peer, ref: string): Promise<number> {
  const start = process.hrtime.bigint();
  try {
    await peer.cri.image.PullImage({ image: { image: ref } }, { deadline: Date.now() + 600_000 });
  } catch (err) {
    throw new RpcFailed('PullImage', err);
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

async function run(env: ScenarioEnv): Promise<Row[]> {
  const series = new PeerSeries(env);
  const registry = await startRegistry();
  const stopRegistry = env.cleanup.push('registry', () => registry.stop());
  try {
    await pushImage(registry.url, env.images.layers3Oci, REPO_TAG);
    const ref = `${registry.host}/${REPO_TAG}`;
    for (const peer of env.peers) {
      const dir = writeHostsToml(peer, registry.host);
      env.cleanup.push(`${peer.name} hosts.toml`, () => rmSync(dir, { recursive: true, force: true }));
    }
    const once = new Set<string>();
    const baseline = hostBaseline(env.tmpDir);
    for (let round = 0; round < env.rounds; round++) {
      for (const peer of alternating(env.peers, round)) {
        if (env.ctx.aborted()) throw new Aborted();
        if (series.failed(peer.name) || once.has(peer.name)) continue;
        try {
          // The previous round's deletions done and written (settle.ts), not under way.
          await settleHost(baseline, env.log, 0);
          series.add(peer.name, 'pull', await pull(peer, ref));
          await waitImage(peer, ref, true);
          if (!(await removeImage(peer, ref))) {
            once.add(peer.name);
            env.log(`image pull: ${peer.name} has no RemoveImage; measured one round only`);
          }
        } catch (err) {
          if (err instanceof Aborted) throw err;
          series.fail(peer.name, err);
          env.log(`image pull: ${peer.name} failed in round ${round}: ${(err as Error).message}`);
        }
      }
    }
  } finally {
    await stopRegistry();
  }
  return [series.row('image', 'pull layers3 from loopback registry (p50)', 'ms', 'pull', p50)];
}

export const imagePull: Scenario = { name: 'pull', run };
