import { boundedBy } from '../../../internal/deadline/bounded';

describe('boundedBy', () => {
  it("keeps the bound without a deadline or when the deadline is further off", () => {
    expect(boundedBy(120_000, undefined, 1_000)).toBe(120_000);
    expect(boundedBy(120_000, Infinity, 1_000)).toBe(120_000);
    expect(boundedBy(60_000, 1_000 + 200_000, 1_000)).toBe(60_000);
  });

  it("shortens it to what is left before a sooner deadline, never below 1 ms", () => {
    expect(boundedBy(120_000, 1_000 + 5_000, 1_000)).toBe(5_000);
    expect(boundedBy(120_000, 500, 1_000)).toBe(1);
  });
});
