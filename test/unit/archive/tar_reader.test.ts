// The tar parser on hand-written archives: PAX values stay bytes (binary xattrs survive), GNU
// long names and base-256 numbers decode, and broken archives are refused.
import { kindOf } from '../../../internal/errdefs/errors';
import type { TarHeader } from '../../../internal/archive/tar_header';
import { TarParser } from '../../../internal/archive/tar_reader';
import { paxRecord, rawHeader, rawTar } from '../../integration/archive/raw_tar';

interface Parsed {
  header: TarHeader;
  data: Buffer;
}

/** Parses `tar` fed `chunk` bytes at a time. */
function parse(tar: Buffer, chunk = tar.length): Parsed[] {
  const out: Parsed[] = [];
  const parser = new TarParser({
    entry(header) {
      const parts: Buffer[] = [];
      const entry = { header, data: Buffer.alloc(0) };
      out.push(entry);
      return {
        write: (c) => void parts.push(Buffer.from(c)),
        end: () => void (entry.data = Buffer.concat(parts)),
      };
    },
  });
  for (let i = 0; i < tar.length; i += chunk) {
    parser.push(tar.subarray(i, i + chunk));
    while (parser.step());
  }
  parser.end();
  return out;
}

// security.capability for cap_setuid+ep (VFS_CAP_REVISION_2): bytes >= 0x80 are not UTF-8.
const CAPABILITY = Buffer.from([1, 0, 0, 2, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
const BINARY = Buffer.from([0xff, 0x00, 0xfe, 0x80, 0x0a, 0x3d]); // with a NUL, a newline and "="

describe('TarParser', () => {
  it('keeps PAX xattr values as the exact bytes, and PAX path, mtime and size win over the block', () => {
    const pax = Buffer.concat([
      paxRecord('path', Buffer.from('bin/ping-ü')),
      paxRecord('mtime', Buffer.from('1700000000.25')),
      paxRecord('SCHILY.xattr.security.capability', CAPABILITY),
      paxRecord('SCHILY.xattr.user.blob', BINARY),
    ]);
    const tar = rawTar([
      { name: 'PaxHeaders/ping', typeflag: 'x', data: pax },
      { name: 'bin/ping', typeflag: '0', data: Buffer.from('ELF'), mode: 0o755 },
    ]);
    for (const chunk of [tar.length, 7, 1]) {
      const [entry, ...rest] = parse(tar, chunk);
      expect(rest).toEqual([]);
      expect(entry!.header.name).toBe(Buffer.from('bin/ping-ü').toString('latin1')); // names are byte strings
      expect(entry!.header.mtime).toEqual({ sec: 1700000000, nsec: 250_000_000 });
      expect(entry!.header.mode).toBe(0o755);
      expect(entry!.data.toString()).toBe('ELF');
      expect(entry!.header.xattrs).toEqual([
        ['security.capability', CAPABILITY],
        ['user.blob', BINARY],
      ]);
    }
  });

  it('reads GNU long names and base-256 numbers, and applies a PAX header to one entry only', () => {
    const long = `${'d'.repeat(120)}/${'f'.repeat(120)}`;
    const tar = rawTar([
      { name: '././@LongLink', typeflag: 'L', data: Buffer.from(`${long}\0`) },
      { name: long.slice(0, 99), typeflag: '0', data: Buffer.from('x'), uid: 3_000_000_000, uidBase256: true },
      { name: 'pax', typeflag: 'x', data: paxRecord('uid', Buffer.from('77')) },
      { name: 'a', typeflag: '0' },
      { name: 'b/', typeflag: '0' }, // pre-POSIX directory: a trailing slash on a file entry
    ]);
    const entries = parse(tar, 100);
    expect(entries.map((e) => [e.header.name, e.header.type, e.header.uid])).toEqual([
      [long, 'file', 3_000_000_000],
      ['a', 'file', 77],
      ['b/', 'directory', 0],
    ]);
  });

  it('stops at the end-of-archive marker and ignores what follows', () => {
    const tar = Buffer.concat([rawTar([{ name: 'a', typeflag: '0', data: Buffer.from('A') }]), Buffer.alloc(700, 0x41)]);
    expect(parse(tar, 333).map((e) => e.header.name)).toEqual(['a']);
  });

  it('refuses a header whose checksum does not add up, an unknown type, and a cut-off archive', () => {
    const bad = rawHeader({ name: 'a', typeflag: '0' });
    bad[0] = 0x62; // "b": the stored checksum no longer matches
    const errors = [
      () => parse(Buffer.concat([bad, Buffer.alloc(1024)])),
      () => parse(rawTar([{ name: 'sparse', typeflag: 'S' }])),
      () => parse(rawTar([{ name: 'big', typeflag: '0', data: Buffer.alloc(2000, 1) }]).subarray(0, 1500)),
    ].map((run) => {
      try {
        run();
        return undefined;
      } catch (err) {
        return [kindOf(err), (err as Error).message];
      }
    });
    expect(errors[0]).toEqual(['InvalidArgument', expect.stringContaining('checksum')]);
    expect(errors[1]).toEqual(['InvalidArgument', expect.stringContaining('"sparse": unsupported entry type "S"')]);
    expect(errors[2]).toEqual(['InvalidArgument', expect.stringContaining('truncated inside entry "big"')]);
  });

  describe('bounds what it holds in memory', () => {
    /** The error parse() throws, as [kind, message]. */
    const refusal = (tar: Buffer, chunk?: number): [string | undefined, string] | undefined => {
      try {
        parse(tar, chunk);
        return undefined;
      } catch (err) {
        return [kindOf(err), (err as Error).message];
      }
    };

    it('refuses a PAX header or GNU long name larger than 1 MiB from its size field, before its data', () => {
      // Only the header block and a little data: the parser must refuse without waiting for the rest.
      for (const typeflag of ['x', 'g', 'L', 'K']) {
        const header = rawHeader({ name: 'huge', typeflag, size: 1 << 30 });
        expect(refusal(Buffer.concat([header, Buffer.alloc(4096)]))).toEqual(['InvalidArgument', expect.stringMatching(/"huge".* 1073741824 bytes is too large/)]);
      }
    });

    it('takes a PAX header of exactly 1 MiB', () => {
      const filler = paxRecord('comment', Buffer.alloc((1 << 20) - 20, 0x61));
      const pax = Buffer.concat([filler, Buffer.alloc((1 << 20) - filler.length, 0)]);
      expect(pax.length).toBe(1 << 20);
      const tar = rawTar([{ name: 'p', typeflag: 'x', data: pax }, { name: 'a', typeflag: '0' }]);
      expect(parse(tar, 65536).map((e) => e.header.name)).toEqual(['a']);
    });

    it('refuses names and link targets longer than PATH_MAX, from PAX records or GNU long names', () => {
      const long = `${'d/'.repeat(2047)}f`; // 4095 bytes: the longest the kernel takes
      const tooLong = `${long}x`;
      expect(parse(rawTar([{ name: 'p', typeflag: 'x', data: paxRecord('path', Buffer.from(long)) }, { name: 'a', typeflag: '0' }]))[0]?.header.name).toBe(long);
      const cases: Buffer[] = [
        rawTar([{ name: 'p', typeflag: 'x', data: paxRecord('path', Buffer.from(tooLong)) }, { name: 'a', typeflag: '0' }]),
        rawTar([{ name: '././@LongLink', typeflag: 'L', data: Buffer.from(`${tooLong}\0`) }, { name: 'a', typeflag: '0' }]),
        rawTar([{ name: 'p', typeflag: 'x', data: paxRecord('linkpath', Buffer.from(tooLong)) }, { name: 'l', typeflag: '2' }]),
        rawTar([{ name: '././@LongLink', typeflag: 'K', data: Buffer.from(`${tooLong}\0`) }, { name: 'l', typeflag: '1', linkname: 'x' }]),
      ];
      for (const tar of cases) expect(refusal(tar)).toEqual(['InvalidArgument', expect.stringContaining('4096 bytes is longer than 4095')]);
    });
  });
});
