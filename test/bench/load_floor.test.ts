// The load floor runs bin/berthd (made by `make build`) as a user would and times it to its first
// output: it must get that output and a clean exit, or it gives no figure.
import { loadFloorMs } from './load_floor';

describe('loadFloorMs', () => {
  it('times bin/berthd --help to its usage text', async () => {
    const ms = await loadFloorMs();
    expect(Number.isFinite(ms)).toBe(true);
    expect(ms).toBeGreaterThan(0);
  });
});
