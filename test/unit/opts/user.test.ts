import { kindOf } from '../../../internal/errdefs/errors';
import { mergeGids, parseGroup, parsePasswd, userLookupFromImage } from '../../../internal/cri/opts/user';
import { GROUP, imageFiles, PASSWD } from './fixtures';

describe('passwd and group parsing', () => {
  it('reads entries and skips comments and malformed lines', () => {
    const users = parsePasswd(`# comment\n${PASSWD}broken:x:notanumber:0::/:/bin/sh\n:x:1:1::/:\n`);
    expect(users.map((u) => [u.name, u.uid, u.gid])).toEqual([
      ['root', 0, 0],
      ['daemon', 1, 1],
      ['alice', 1000, 1000],
      ['bob', 1001, 100],
      ['nobody', 65534, 65534],
    ]);
    const groups = parseGroup(GROUP);
    expect(groups.find((g) => g.name === 'audio')).toEqual({ name: 'audio', gid: 29, members: ['alice', 'bob'] });
    expect(groups.find((g) => g.name === 'staff')?.members).toEqual([]);
  });

  it('treats a missing file as empty', () => {
    expect(parsePasswd(undefined)).toEqual([]);
    expect(parseGroup(undefined)).toEqual([]);
  });
});

describe('userLookupFromImage.resolve', () => {
  const lookup = imageFiles();
  it.each([
    ['root', { uid: 0, gid: 0 }],
    ['alice', { uid: 1000, gid: 1000 }],
    ['1001', { uid: 1001, gid: 100 }], // uid in passwd: its primary gid
    ['4242', { uid: 4242, gid: 0 }], // uid not in passwd: allowed, gid 0
    ['1000:50', { uid: 1000, gid: 50 }],
    ['alice:staff', { uid: 1000, gid: 50 }],
    ['4242:staff', { uid: 4242, gid: 50 }],
    ['bob:7', { uid: 1001, gid: 7 }],
    ['65535:65535', { uid: 65535, gid: 65535 }],
  ])('%s -> %j', (user, ids) => {
    expect(lookup.resolve(user)).toEqual(ids);
  });

  it.each([
    ['mallory', /user "mallory" not found/],
    ['mallory:staff', /user "mallory" not found/],
    ['alice:nosuchgroup', /group "nosuchgroup" not found/],
    ['a:b:c', /invalid user "a:b:c"/],
  ])('%s is an InvalidArgument naming it', (user, message) => {
    let err: unknown;
    try {
      lookup.resolve(user);
    } catch (e) {
      err = e;
    }
    expect(kindOf(err)).toBe('InvalidArgument');
    expect((err as Error).message).toMatch(message);
  });

  it('works without /etc/passwd for numeric users and fails for names', () => {
    const empty = userLookupFromImage(() => undefined);
    expect(empty.resolve('1234')).toEqual({ uid: 1234, gid: 0 });
    expect(empty.resolve('1234:5')).toEqual({ uid: 1234, gid: 5 });
    expect(() => empty.resolve('alice')).toThrow(/alice/);
  });

  it('reads each file at most once', () => {
    const reads: string[] = [];
    const lookup2 = userLookupFromImage((p) => {
      reads.push(p);
      return p === '/etc/passwd' ? PASSWD : GROUP;
    });
    lookup2.resolve('alice');
    lookup2.resolve('bob:staff');
    lookup2.memberGids('alice');
    expect(reads.sort()).toEqual(['/etc/group', '/etc/passwd']);
  });
});

describe('userLookupFromImage.memberGids', () => {
  const lookup = imageFiles();
  it.each([
    ['alice', [10, 29]], // not her own-named group 1000
    ['1000', [10, 29]],
    ['bob', [100, 29]],
    ['root', [10]],
    ['0', [10]],
    ['4242', []], // uid without passwd entry
    ['nobody', []],
  ])('%s -> %j', (user, gids) => {
    expect(lookup.memberGids(user)).toEqual(gids);
  });
});

describe('mergeGids', () => {
  it('sorts and de-duplicates', () => {
    expect(mergeGids([1000], [29, 10], [10, 5])).toEqual([5, 10, 29, 1000]);
  });
});

describe('uid/gid bounds (CVE-2024-40635)', () => {
  const passwd = `${PASSWD}huge:x:4294967295:100::/:/bin/sh\nbiggid:x:2000:2147483648::/:/bin/sh\nmax:x:2147483647:2147483647::/:/bin/sh\n`;
  const group = `${GROUP}biggroup:x:4294967296:carol\n`;
  const lookup = imageFiles({ '/etc/passwd': passwd, '/etc/group': group });

  function refusal(fn: () => unknown): string {
    try {
      fn();
    } catch (e) {
      expect(kindOf(e)).toBe('InvalidArgument');
      return (e as Error).message;
    }
    throw new Error('expected an InvalidArgument');
  }

  it.each([
    ['4294967295', /invalid USER value "4294967295": uid out of range/],
    ['2147483648', /invalid USER value "2147483648": uid out of range/],
    ['99999999999999999999', /uid out of range/],
    ['0:4294967295', /invalid USER value "0:4294967295": gid out of range/],
    ['4294967296:0', /invalid USER value "4294967296:0": uid out of range/],
    ['alice:2147483648', /gid out of range/],
  ])('a numeric USER %s is refused', (user, message) => {
    expect(refusal(() => lookup.resolve(user))).toMatch(message);
  });

  it.each([
    ['huge', /user "huge" in the image's \/etc\/passwd: uid 4294967295 out of range/],
    ['huge:staff', /user "huge" in the image's \/etc\/passwd: uid 4294967295 out of range/],
    ['biggid', /user "biggid" in the image's \/etc\/passwd: gid 2147483648 out of range/],
    ['2000', /user "biggid" in the image's \/etc\/passwd: gid 2147483648 out of range/],
    ['alice:biggroup', /group "biggroup" in the image's \/etc\/group: gid 4294967296 out of range/],
  ])('an id from the image files past MaxInt32 is refused: %s', (user, message) => {
    expect(refusal(() => lookup.resolve(user))).toMatch(message);
  });

  it('refuses a supplemental group past MaxInt32 from /etc/group', () => {
    const carol = imageFiles({ '/etc/passwd': `${passwd}carol:x:3000:3000::/:/bin/sh\n`, '/etc/group': group });
    expect(refusal(() => carol.memberGids('carol'))).toMatch(/group "biggroup" .* gid 4294967296 out of range/);
  });

  it('accepts MaxInt32 itself, and ignores out-of-range lines it does not use', () => {
    expect(lookup.resolve('2147483647:2147483647')).toEqual({ uid: 2147483647, gid: 2147483647 });
    expect(lookup.resolve('max')).toEqual({ uid: 2147483647, gid: 2147483647 });
    expect(lookup.resolve('alice')).toEqual({ uid: 1000, gid: 1000 });
    expect(lookup.memberGids('alice')).toEqual([10, 29]);
  });
});
