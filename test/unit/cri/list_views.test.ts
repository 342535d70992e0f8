// A record's list item is the same frozen object while its key holds, and a new one once it changes.
import { ListViews } from '../../../internal/cri/server/list_views';

describe('ListViews', () => {
  it('keeps one frozen view per record until its key changes', () => {
    let made = 0;
    const views = new ListViews<{ id: string; state: string }, { id: string; state: string; n: number }>(
      (r) => ({ id: r.id, state: r.state, n: ++made }),
      (r) => r.state,
    );
    const a = { id: 'a', state: 'RUNNING' };
    const b = { id: 'b', state: 'RUNNING' };
    const first = views.of(a);
    expect(Object.isFrozen(first)).toBe(true);
    expect(views.of(a)).toBe(first);
    expect(views.of(b)).not.toBe(first);

    a.state = 'EXITED';
    const changed = views.of(a);
    expect(changed).not.toBe(first);
    expect(changed).toMatchObject({ id: 'a', state: 'EXITED' });
    expect(views.of(a)).toBe(changed);
    expect(made).toBe(3);
  });
});
