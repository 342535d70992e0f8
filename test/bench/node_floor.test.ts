// The Node floor runs the compiled floor child (made by `make build`) with bin/berthd's flags: it
// must load berthd's packages, report its RSS and leave with exit code 0 on SIGTERM, or it gives no figure.
import { nodeFloor } from './node_floor';

describe('nodeFloor', () => {
  it('measures a process holding the packages berthd loads, then times its SIGTERM to gone', async () => {
    const floor = await nodeFloor(1);
    // A bare `node -e 0` is ~40 MiB here; the packages add more. Only the sanity of the figure is asserted.
    expect(floor.rssMiB).toBeGreaterThan(10);
    expect(floor.stopMs).toBeGreaterThan(0);
    expect(Number.isFinite(floor.stopMs)).toBe(true);
  });
});
