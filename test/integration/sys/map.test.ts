// The addon's file mappings (map.c), which berthd's start-up compiles its bundle from, and the
// rename-only file replacement that keeps a mapping whole.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replaceFileSync } from '../../../internal/fs/replace_file';
import { errnoCode } from '../../../internal/sys/fs';
import { mapFileBuffer, mapFileLatin1 } from '../../../internal/sys/map';
import { thrownBy } from '../../harness/thrown';
import { fillUp, mountTmpfs, unmountTmpfs } from '../../harness/tmpfs';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'berth-map-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Every byte value, then a stretch longer than a page, so the mapping spans pages. */
const CONTENT = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.alloc(70_000, 'x'), Buffer.from('end')]);

describe('mapped files', () => {
  it('reads as the same bytes as the file, as a one-byte string and as a Buffer', () => {
    const file = join(dir, 'f');
    writeFileSync(file, CONTENT);
    const text = mapFileLatin1(file);
    expect(text.length).toBe(CONTENT.length);
    expect(text === CONTENT.toString('latin1')).toBe(true);
    expect(text.charCodeAt(255)).toBe(255);
    const buf = mapFileBuffer(file);
    expect(buf.equals(CONTENT)).toBe(true);
    expect(buf.subarray(buf.length - 3).toString()).toBe('end');
  });

  it('refuses what is not a regular, non-empty file, with the errno', () => {
    writeFileSync(join(dir, 'empty'), '');
    mkdirSync(join(dir, 'sub'));
    expect(errnoCode(thrownBy(() => mapFileLatin1(join(dir, 'missing'))))).toBe('ENOENT');
    expect(errnoCode(thrownBy(() => mapFileBuffer(join(dir, 'sub'))))).toBe('EINVAL');
    expect(errnoCode(thrownBy(() => mapFileLatin1(join(dir, 'empty'))))).toBe('EINVAL');
    expect(String(thrownBy(() => mapFileBuffer(join(dir, 'missing'))))).toContain(join(dir, 'missing'));
  });

  it('stays as mapped when the file is replaced by rename', () => {
    const file = join(dir, 'bundle.js');
    writeFileSync(file, CONTENT);
    const text = mapFileLatin1(file);
    const buf = mapFileBuffer(file);
    replaceFileSync(file, 'a shorter replacement');
    expect(readFileSync(file, 'utf8')).toBe('a shorter replacement');
    expect(text === CONTENT.toString('latin1')).toBe(true);
    expect(buf.equals(CONTENT)).toBe(true);
  });
});

describe('replaceFileSync', () => {
  it('writes parts one after another as the whole file, with the mode asked for', () => {
    const file = join(dir, 'parts');
    writeFileSync(file, 'old');
    replaceFileSync(file, [Buffer.from('id\n'), CONTENT, Buffer.alloc(0), Buffer.from('tail')], 0o600);
    expect(readFileSync(file).equals(Buffer.concat([Buffer.from('id\n'), CONTENT, Buffer.from('tail')]))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['parts']);
  });

  // `room`: bytes freed after filling the disk, so that in parts the first fits and the second fails.
  it.each([
    ['whole', 0, (): Buffer | Buffer[] => Buffer.alloc(64 * 1024)],
    ['in parts, the second failing', 8192, (): Buffer | Buffer[] => [Buffer.from('id\n'), Buffer.alloc(64 * 1024)]],
  ])('on a full disk fails with ENOSPC and leaves the old file whole and no temp file (%s)', (_how, room, data) => {
    const disk = join(dir, 'disk');
    mountTmpfs(disk, '256k');
    try {
      const file = join(disk, 'berthd.js.cache');
      writeFileSync(file, 'old');
      const mapped = mapFileLatin1(file);
      const filler = fillUp(disk);
      truncateSync(filler, statSync(filler).size - room);
      expect((thrownBy(() => replaceFileSync(file, data())) as NodeJS.ErrnoException).code).toBe('ENOSPC');
      expect(readFileSync(file, 'utf8')).toBe('old');
      expect(mapped).toBe('old');
      expect(readdirSync(disk).sort()).toEqual(['berthd.js.cache', 'filler']);
    } finally {
      unmountTmpfs(disk);
    }
  });
});
