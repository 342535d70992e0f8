// The scale scenario's pod workers: every pod is tried once, never more than the bound at once,
// and one failure neither stops the others nor loses their results.
import { runPool } from './pool';

describe('runPool', () => {
  it('runs every task once with at most the bound in flight, and settles failures', async () => {
    let inFlight = 0;
    let most = 0;
    const ran: number[] = [];
    const results = await runPool(25, 4, async (i) => {
      inFlight++;
      most = Math.max(most, inFlight);
      ran.push(i);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      if (i === 7) throw new Error('pod 7 failed');
      return i * 2;
    });
    expect(most).toBe(4);
    expect([...ran].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(results[7]).toEqual({ status: 'rejected', reason: new Error('pod 7 failed') });
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value)).toEqual(
      Array.from({ length: 25 }, (_, i) => i * 2).filter((v) => v !== 14),
    );
  });
});
