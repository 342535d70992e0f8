import { cleanEntryName, detectCompression } from '../../../internal/archive';
import { kindOf } from '../../../internal/errdefs/errors';

describe('cleanEntryName', () => {
  it.each([
    ['a/b', ['a', 'b']],
    ['./a//b/', ['a', 'b']],
    ['a/./b/../c', ['a', 'c']],
    ['./', []],
    ['.', []],
    ['a/..', []],
  ])('%s → %j', (name, parts) => {
    expect(cleanEntryName(name)).toEqual(parts);
  });

  it.each(['/etc/passwd', '../x', 'a/../../x', '..', 'a\0b'])('refuses %j, naming it', (name) => {
    let err: unknown;
    try {
      cleanEntryName(name);
    } catch (e) {
      err = e;
    }
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(String(err)).toContain(`"${name}"`);
  });
});

describe('detectCompression', () => {
  it.each([
    [[0x1f, 0x8b, 8, 0], 'gzip'],
    [[0x28, 0xb5, 0x2f, 0xfd, 0], 'zstd'],
    [[0x42, 0x5a, 0x68, 0x39], 'bzip2'],
    [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'xz'],
    [[0x61, 0x2f, 0, 0], 'none'],
    [[0x1f], 'none'],
  ])('%j → %s', (bytes, kind) => {
    expect(detectCompression(Buffer.from(bytes))).toBe(kind);
  });
});
