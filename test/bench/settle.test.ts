// The bench's settle (settle.ts) against a scripted host: it waits for a deletion under way and
// for dying memory cgroups, syncs before the quiet time, does not wait out its timeout for inodes a
// scenario keeps on purpose, and says when a count never came back.
import { hostBaseline, settleHost, type HostProbe } from './settle';

/** A host whose counts step through `inodes` and `memcgs`, one value per read (the last one stays). */
function scriptedHost(inodes: number[], memcgs: number[]): HostProbe & { syncs: number; reads: number } {
  const next = (values: number[]) => (values.length > 1 ? values.shift()! : values[0]!);
  const host = {
    syncs: 0,
    reads: 0,
    usedInodes: () => {
      host.reads++;
      return next(inodes);
    },
    memoryCgroups: () => next(memcgs),
    sync: () => {
      host.syncs++;
    },
  };
  return host;
}

describe('settleHost', () => {
  it('waits until a deletion is back at the baseline and the dying memory cgroups are released', async () => {
    const host = scriptedHost([10_000, 14_000, 13_000, 12_000, 10_100], [50, 400, 300, 60]);
    const baseline = hostBaseline('/', host);
    const logged: string[] = [];
    await settleHost(baseline, (line) => logged.push(line), 0, 60_000, host);
    expect(logged).toEqual([]);
    expect(host.usedInodes('/')).toBe(10_100); // every value read: it waited through the deletion
    expect(host.memoryCgroups()).toBe(60);
    expect(host.syncs).toBe(1);
  });

  it('counts inodes kept on purpose as settled once their number stops falling', async () => {
    const host = scriptedHost([10_000, 11_000, 10_600, 10_550, 10_550], [50]);
    const logged: string[] = [];
    await settleHost(hostBaseline('/', host), (line) => logged.push(line), 0, 60_000, host);
    expect(logged).toEqual([]); // not the timeout's message
    expect(host.reads).toBeLessThan(20);
  });

  it('says which count did not come back within its timeout, and goes on', async () => {
    let inodes = 20_000;
    const host = scriptedHost([10_000], [500]);
    host.usedInodes = () => (inodes -= 10); // still falling at every read
    const logged: string[] = [];
    await settleHost({ path: '/', usedInodes: 10_000, memoryCgroups: 50 }, (line) => logged.push(line), 0, 1_500, host);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/inodes more in use than at the baseline, still falling/);
    expect(logged[1]).toMatch(/^settle: 500 memory cgroups .* against 50/);
    expect(host.syncs).toBe(1);
  });
});
