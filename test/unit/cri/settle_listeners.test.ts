// whenSettled (internal/cri/util/settle_listeners.ts): a waiter that leaves before a long-pending
// promise settles is no longer reachable from it, which a then() reaction never allows; the
// waiters still there when it settles get its value or reason.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { whenSettled } from '../../../internal/cri/util/settle_listeners';
import { settledWithin } from '../../../internal/cri/util/settled';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** 100 sessions that wait, made where no variable of the caller's (an async function's) can keep one. */
function startSessions(wait: (session: { buffer: Buffer }) => void): WeakRef<object>[] {
  const refs: WeakRef<object>[] = [];
  for (let i = 0; i < 100; i++) {
    const session = { buffer: Buffer.alloc(1024) };
    refs.push(new WeakRef(session));
    wait(session);
  }
  return refs;
}

/** How many of 100 sessions, each waiting on `pending` through `wait` and then leaving, a full GC leaves reachable. */
async function sessionsKept(pending: Promise<void>, wait: (session: { buffer: Buffer }) => void): Promise<number> {
  const refs = startSessions(wait);
  await new Promise((resolve) => setImmediate(resolve)); // a WeakRef holds its target until the job ends
  gc();
  return refs.filter((ref) => ref.deref() !== undefined).length;
}

describe('whenSettled', () => {
  it('leaves nothing of a waiter that left while the promise is still pending', async () => {
    const pending = new Promise<void>(() => {});
    expect(await sessionsKept(pending, (session) => whenSettled(pending, () => void session.buffer.fill(1), () => undefined)())).toBe(0);
  });

  it('(a then() reaction, by contrast, keeps every one of them)', async () => {
    const pending = new Promise<void>(() => {});
    expect(await sessionsKept(pending, (session) => void pending.then(() => void session.buffer.fill(1)))).toBe(100);
  });

  it('calls the waiters present when it settles, once, with the value or the reason', async () => {
    let resolve!: (v: number) => void;
    const value = new Promise<number>((r) => (resolve = r));
    const got: string[] = [];
    whenSettled(value, (v) => got.push(`a ${v}`), () => got.push('a failed'));
    const leave = whenSettled(value, (v) => got.push(`b ${v}`), () => got.push('b failed'));
    leave();
    resolve(7);
    await value;
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual(['a 7']);
    // A waiter that comes after it settled is still called.
    await new Promise<void>((r) => whenSettled(value, (v) => r(void got.push(`c ${v}`)), () => undefined));
    expect(got).toEqual(['a 7', 'c 7']);

    const failure = Promise.reject(new Error('gone'));
    await expect(new Promise((r, j) => whenSettled(failure, r, j))).rejects.toThrow('gone');
  });
});

describe('settledWithin', () => {
  /** 50 bounded waits on `pending` that each ran out; how many of their promises a full GC leaves reachable. */
  async function waitsKept(pending: Promise<void>): Promise<number> {
    const refs: WeakRef<Promise<boolean>>[] = [];
    // Each in a frame of its own, which ends with it: this one's variables keep no wait.
    const oneWait = async (): Promise<boolean> => {
      const wait = settledWithin(pending, 1);
      refs.push(new WeakRef(wait));
      return wait;
    };
    for (let i = 0; i < 50; i++) expect(await oneWait()).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    return refs.filter((ref) => ref.deref() !== undefined).length;
  }

  it('leaves nothing on a promise still pending once the bound ran out (an exec probe on a running container)', async () => {
    expect(await waitsKept(new Promise<void>(() => {}))).toBe(0);
  });

  it('says whether the promise settled in time', async () => {
    expect(await settledWithin(Promise.resolve(), 1_000)).toBe(true);
    expect(await settledWithin(Promise.reject(new Error('x')), 1_000)).toBe(true);
    expect(await settledWithin(new Promise(() => {}), 1)).toBe(false);
  });
});
