// afterMs and settledWithin past setTimeout's 2^31-1 ms limit (where Node fires at once).
import { afterMs } from '../../../internal/cri/util/after_ms';
import { settledWithin } from '../../../internal/cri/util/settled';

const LIMIT = 2 ** 31 - 1;

describe('timers for delays a request names', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('afterMs fires after a delay three times the limit, not before, and not once cancelled', () => {
    const fired: number[] = [];
    afterMs(3 * LIMIT, () => fired.push(1));
    const cancel = afterMs(3 * LIMIT, () => fired.push(2));
    jest.advanceTimersByTime(1);
    expect(fired).toEqual([]);
    jest.advanceTimersByTime(3 * LIMIT - 2);
    expect(fired).toEqual([]);
    cancel();
    jest.advanceTimersByTime(1);
    expect(fired).toEqual([1]);
  });

  it('settledWithin past the limit waits, and answers true once the promise settles', async () => {
    let settle!: () => void;
    const waited = settledWithin(new Promise<void>((r) => (settle = r)), 2 * LIMIT);
    jest.advanceTimersByTime(LIMIT + 1);
    settle();
    await expect(waited).resolves.toBe(true);
    expect(jest.getTimerCount()).toBe(0);
  });
});
