// The scale scenario's rounds: every peer starts its pods once per round, the order balanced so a
// drift of the host over the scenario lands on both peers alike, and only the last round goes on
// to the queries, polling and restarts.
import { roundOrder } from './scenarios/scale';

const names = (order: Array<{ peer: string; last: boolean }>) => order.map((o) => `${o.peer}${o.last ? '*' : ''}`).join(' ');

describe('scale rounds', () => {
  it('runs one round in the peers own order, as before rounds', () => {
    expect(names(roundOrder(['containerd', 'berth'], 1))).toBe('containerd* berth*');
  });

  it('puts each peer first as often as last: B A A B for two rounds, the last in A B order', () => {
    expect(names(roundOrder(['containerd', 'berth'], 2))).toBe('berth containerd containerd* berth*');
  });

  it('alternates every round back from the last one', () => {
    expect(names(roundOrder(['containerd', 'berth'], 3))).toBe('containerd berth berth containerd containerd* berth*');
  });

  it('gives a single peer every round', () => {
    expect(names(roundOrder(['berth'], 2))).toBe('berth berth*');
  });
});
