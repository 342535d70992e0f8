// The query rows rely on collectClientGarbage emptying the young generation before each timed call.
import { getHeapSpaceStatistics } from 'node:v8';
import { collectClientGarbage } from './client_gc';

const newSpaceUsed = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!.space_used_size;

describe('collectClientGarbage', () => {
  it('empties the young generation of garbage', () => {
    let keep = 0;
    for (let i = 0; i < 5_000; i++) keep += { i, text: `garbage ${i}` }.text.length;
    const before = newSpaceUsed();
    collectClientGarbage();
    const after = newSpaceUsed();
    expect(keep).toBeGreaterThan(0);
    expect(after).toBeLessThan(before / 2);
  });
});
