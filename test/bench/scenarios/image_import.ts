// image import: layers3-oci.tar (3 layers, ~58 MB) imported and unpacked into overlay snapshots
// through each daemon's own tool (ctr images import / berthctl images import), wall time of the
// tool; the image (and so its content and snapshots) is removed between rounds.
import { LAYERS3_IMAGE } from '../../harness/images';
import { Aborted } from '../errors';
import type { Row } from '../report';
import { p50 } from '../stats';
import { removeImage, waitImage } from './image_store';
import { alternating, PeerSeries, type Scenario, type ScenarioEnv } from './scenario';

async function run(env: ScenarioEnv): Promise<Row[]> {
  const series = new PeerSeries(env);
  const once = new Set<string>(); // peers that cannot remove, so cannot repeat from scratch
  for (let round = 0; round < env.rounds; round++) {
    for (const peer of alternating(env.peers, round)) {
      if (env.ctx.aborted()) throw new Aborted();
      if (series.failed(peer.name) || once.has(peer.name)) continue;
      try {
        const start = process.hrtime.bigint();
        await peer.importImage(env.images.layers3Oci);
        series.add(peer.name, 'import', Number(process.hrtime.bigint() - start) / 1e6);
        await waitImage(peer, LAYERS3_IMAGE, true);
        if (!(await removeImage(peer, LAYERS3_IMAGE))) {
          once.add(peer.name);
          env.log(`image import: ${peer.name} has no RemoveImage; measured one round only`);
        }
      } catch (err) {
        if (err instanceof Aborted) throw err;
        series.fail(peer.name, err);
        env.log(`image import: ${peer.name} failed in round ${round}: ${(err as Error).message}`);
      }
    }
  }
  return [series.row('image', 'import+unpack layers3 (p50)', 'ms', 'import', p50)];
}

export const imageImport: Scenario = { name: 'import', run };
