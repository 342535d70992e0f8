// The memory rows' own-share rows: berthd's RSS above the Node floor beside each pod-count row.
import type { Row } from './report';
import { withOwnShares } from './scenarios/memory';

const row = (figure: string, containerd: number, berth: number, floor?: number): Row => ({
  scenario: 'memory',
  figure,
  unit: 'MiB',
  containerd: { value: containerd },
  berth: { value: berth },
  ...(floor === undefined ? {} : { floor }),
});

describe('withOwnShares', () => {
  it('puts berthd above the floor after each RSS row that has a floor, containerd whole', () => {
    const rows = withOwnShares([
      row('RSS idle, daemon', 44, 62, 56),
      row('RSS idle, daemon+shims', 44, 62, 56),
      row('RSS 20 pods, daemon', 53, 71, 56),
      row('RSS 20 pods, daemon+shims', 322, 336, 56),
    ]);
    expect(rows.map((r) => [r.figure, r.containerd, r.berth])).toEqual([
      ['RSS idle, daemon', { value: 44 }, { value: 62 }],
      ['RSS idle, daemon above Node floor (containerd: all)', { value: 44 }, { value: 6 }],
      ['RSS idle, daemon+shims', { value: 44 }, { value: 62 }], // no pods, no shims: the daemon row's
      ['RSS 20 pods, daemon', { value: 53 }, { value: 71 }],
      ['RSS 20 pods, daemon above Node floor (containerd: all)', { value: 53 }, { value: 15 }],
      ['RSS 20 pods, daemon+shims', { value: 322 }, { value: 336 }],
      ['RSS 20 pods, daemon+shims above Node floor (containerd: all)', { value: 322 }, { value: 280 }],
    ]);
  });

  it('adds nothing where no floor was measured, and keeps a failed cell as it is', () => {
    expect(withOwnShares([row('RSS 110 pods, daemon', 132, 98)])).toHaveLength(1);
    const failed: Row = { ...row('RSS 110 pods, daemon', 132, 0, 56), berth: { na: 'peer failed', error: true } };
    expect(withOwnShares([failed])[1]!.berth).toEqual({ na: 'peer failed', error: true });
  });
});
