// image import: layers3-oci.tar (3 layers, ~58 MB) imported and unpacked into overlay snapshots
// through each daemon's own tool (ctr images import / berthctl images import), wall time of the
// tool; the image (and so its content and snapshots) is removed between rounds. Beside it, the
// unpack floor: GNU tar extracting the same three layers on the same filesystem (tar_floor.ts),
// once per round.
import { join } from 'node:path';
import { LAYERS3_IMAGE } from '../../harness/images';
import { Aborted } from '../errors';
import { cellFromError, type Row } from '../report';
import { hostBaseline, settleHost } from '../settle';
import { p50 } from '../stats';
import { layerBlobsOf, timeTarExtract } from '../tar_floor';
import { removeImage, waitImage } from './image_store';
import { alternating, PeerSeries, type Scenario, type ScenarioEnv } from './scenario';

export const TAR_FLOOR_FIGURE = 'unpack floor: tar -xf of the 3 layers (p50)';

async function run(env: ScenarioEnv): Promise<Row[]> {
  const series = new PeerSeries(env);
  const once = new Set<string>(); // peers that cannot remove, so cannot repeat from scratch
  const floorMs: number[] = [];
  let floorError: unknown;
  let blobs: string[] | undefined;
  const floorRound = async (): Promise<void> => {
    try {
      // The daemons' roots are under env.tmpDir: the floor extracts on the same filesystem.
      blobs ??= layerBlobsOf(env.images.layers3Oci, join(env.tmpDir, 'layers3-oci'));
      floorMs.push(await timeTarExtract(blobs, env.tmpDir));
    } catch (err) {
      floorError = err;
      env.log(`image import: tar floor failed: ${(err as Error).message}`);
    }
  };
  const baseline = hostBaseline(env.tmpDir);
  for (let round = 0; round < env.rounds; round++) {
    if (floorError === undefined) await floorRound();
    for (const peer of alternating(env.peers, round)) {
      if (env.ctx.aborted()) throw new Aborted();
      if (series.failed(peer.name) || once.has(peer.name)) continue;
      try {
        // The previous round's deletions done and written (settle.ts), not under way.
        await settleHost(baseline, env.log, 0);
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
  const floor = floorMs.length > 0 ? p50(floorMs) : undefined;
  const floorCell = floorError === undefined ? { na: '(no daemon)' } : cellFromError(floorError);
  return [
    { ...series.row('image', 'import+unpack layers3 (p50)', 'ms', 'import', p50), floor },
    { scenario: 'image', figure: TAR_FLOOR_FIGURE, unit: 'ms', containerd: floorCell, berth: floorCell, floor },
  ];
}

export const imageImport: Scenario = { name: 'import', run };
