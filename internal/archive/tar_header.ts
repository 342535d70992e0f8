// Decoding one 512-byte tar header block (ustar, GNU and old v7 layouts) and PAX extended-header
// records. PAX values stay bytes: SCHILY.xattr.* values are binary (security.capability), and
// decoding them as UTF-8 would corrupt them; only the keys we read as text are decoded. Names and
// link targets are byte strings (byte_names.ts): a tar's names need not be UTF-8.
import { invalidArgument } from '../errdefs/errors';
import type { Timespec } from '../sys/fsat';
import { byteString } from './byte_names';

export const BLOCK_SIZE = 512;

/** What an entry is, by its typeflag (the names tar-stream used, which the writer switches on). */
export type EntryType =
  | 'file'
  | 'link'
  | 'symlink'
  | 'character-device'
  | 'block-device'
  | 'directory'
  | 'fifo'
  | 'contiguous-file';

/** A typeflag that describes the next entry instead of being one. */
export type MetaType = 'pax-header' | 'pax-global-header' | 'gnu-long-name' | 'gnu-long-link';

export interface RawHeader {
  /** Name as the block spells it (ustar prefix joined); PAX path / GNU long name override it. */
  name: string;
  typeflag: number;
  mode: number;
  uid: number;
  gid: number;
  size: number;
  mtime: number;
  linkname: string;
  devmajor: number;
  devminor: number;
}

/** One entry, after its PAX records and GNU long names were applied. */
export interface TarHeader {
  name: string;
  type: EntryType;
  mode: number;
  uid: number;
  gid: number;
  /** Bytes of data that follow the header. */
  size: number;
  /** Since the epoch, to the nanosecond a PAX record may give. */
  mtime: Timespec;
  atime: Timespec | undefined;
  linkname: string;
  devmajor: number;
  devminor: number;
  /** Extended attributes from PAX `SCHILY.xattr.<name>` records, values as raw bytes. */
  xattrs: Array<[string, Buffer]>;
  /** A GNU sparse file: `size` is then the file's size, and the archive holds only its data. */
  sparse?: Sparse;
}

/**
 * How a GNU sparse file (PAX formats 0.0, 0.1 and 1.0, as GNU tar --sparse writes them) is
 * stored: the data fragments of a file with holes, one after the other.
 */
export interface Sparse {
  /** The fragments, [offset in the file, length]; undefined for format 1.0, whose map leads the data. */
  map: Array<[number, number]> | undefined;
  /** Bytes the archive holds for the entry: the fragments (and for 1.0 the map before them). */
  storedSize: number;
}

const ENTRY_TYPES: Record<number, EntryType> = {
  0: 'file',
  0x30: 'file', // '0'
  0x31: 'link',
  0x32: 'symlink',
  0x33: 'character-device',
  0x34: 'block-device',
  0x35: 'directory',
  0x36: 'fifo',
  0x37: 'contiguous-file',
};

const META_TYPES: Record<number, MetaType> = {
  0x78: 'pax-header', // 'x'
  0x67: 'pax-global-header', // 'g'
  0x4c: 'gnu-long-name', // 'L'
  0x4b: 'gnu-long-link', // 'K'
};

export function entryTypeOf(typeflag: number): EntryType | undefined {
  return ENTRY_TYPES[typeflag];
}

export function metaTypeOf(typeflag: number): MetaType | undefined {
  return META_TYPES[typeflag];
}

/** A printable form of a typeflag for error messages ("S", or "0x00"). */
export function typeflagName(typeflag: number): string {
  return typeflag >= 0x21 && typeflag < 0x7f ? JSON.stringify(String.fromCharCode(typeflag)) : `0x${typeflag.toString(16)}`;
}

/** NUL-terminated name field, as a byte string (byte_names.ts). */
function text(block: Buffer, offset: number, length: number): string {
  let end = offset;
  const limit = offset + length;
  while (end < limit && block[end] !== 0) end++;
  return byteString(block, offset, end);
}

/** Octal number field (leading spaces/NULs, NUL or space terminated), or base-256 when the top bit is set. */
function number(block: Buffer, offset: number, length: number, field: string): number {
  if (block[offset]! & 0x80) {
    // GNU base-256: big-endian two's complement in the remaining bits.
    let value = block[offset]! & 0x3f;
    if (block[offset]! & 0x40) throw invalidArgument(`tar header: negative ${field}`);
    for (let i = offset + 1; i < offset + length; i++) value = value * 256 + block[i]!;
    if (!Number.isSafeInteger(value)) throw invalidArgument(`tar header: ${field} is too large`);
    return value;
  }
  let i = offset;
  const limit = offset + length;
  while (i < limit && (block[i] === 0x20 || block[i] === 0)) i++;
  let value = 0;
  for (; i < limit; i++) {
    const c = block[i]!;
    if (c === 0 || c === 0x20) break;
    if (c < 0x30 || c > 0x37) throw invalidArgument(`tar header: ${field} is not an octal number`);
    value = value * 8 + (c - 0x30);
  }
  return value;
}

function isZeroBlock(block: Buffer): boolean {
  for (let i = 0; i < BLOCK_SIZE; i++) if (block[i] !== 0) return false;
  return true;
}

/** The header checksum is the sum of the block's bytes with the checksum field read as spaces. */
function checksumMatches(block: Buffer): boolean {
  const stored = number(block, 148, 8, 'checksum');
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK_SIZE; i++) {
    const b = i >= 148 && i < 156 ? 0x20 : block[i]!;
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  // Some old tars summed signed chars; accept either, as Go's archive/tar does.
  return stored === unsigned || stored === signed;
}

/**
 * Decodes a header block; undefined for an all-zero block (end-of-archive marker). A block whose
 * checksum does not add up is refused: the stream is not a tar (or is compressed in a way we missed).
 */
export function decodeHeader(block: Buffer): RawHeader | undefined {
  if (isZeroBlock(block)) return undefined;
  let checksumOk: boolean;
  try {
    checksumOk = checksumMatches(block);
  } catch {
    checksumOk = false;
  }
  if (!checksumOk) throw invalidArgument('tar header checksum mismatch: the layer is not a tar archive or is corrupt');
  let name = text(block, 0, 100);
  // "ustar\0" (POSIX) has a 155-byte prefix; "ustar  " (old GNU) uses that space for other fields.
  const posix = block.toString('latin1', 257, 263) === 'ustar\0';
  if (posix && block[345] !== 0) name = `${text(block, 345, 155)}/${name}`;
  let typeflag = block[156]!;
  // Pre-POSIX tars mark directories only by a trailing slash on a regular-file entry.
  if ((typeflag === 0 || typeflag === 0x30) && name.endsWith('/')) typeflag = 0x35;
  return {
    name,
    typeflag,
    mode: number(block, 100, 8, 'mode'),
    uid: number(block, 108, 8, 'uid'),
    gid: number(block, 116, 8, 'gid'),
    size: number(block, 124, 12, 'size'),
    mtime: number(block, 136, 12, 'mtime'),
    linkname: text(block, 157, 100),
    devmajor: number(block, 329, 8, 'devmajor'),
    devminor: number(block, 337, 8, 'devminor'),
  };
}

/**
 * PAX extended-header records ("<len> <key>=<value>\n"), values as bytes. A malformed record is
 * refused rather than skipped: silently losing an xattr or a long path would corrupt the layer.
 */
export function decodePaxRecords(data: Buffer): Map<string, Buffer> {
  const records = new Map<string, Buffer>();
  // Sparse format 0.0 repeats offset/numbytes pairs: gathered, in order, into one 0.1-style map.
  const sparsePairs: string[] = [];
  let pos = 0;
  while (pos < data.length) {
    // Trailing NUL padding after the last record is tolerated.
    if (data[pos] === 0) break;
    const space = data.indexOf(0x20, pos);
    if (space < 0) throw invalidArgument('tar PAX header: record without a length');
    const len = Number.parseInt(data.toString('latin1', pos, space), 10);
    const end = pos + len;
    if (!Number.isSafeInteger(len) || len <= space - pos || end > data.length || data[end - 1] !== 0x0a) {
      throw invalidArgument('tar PAX header: malformed record');
    }
    const eq = data.indexOf(0x3d, space + 1);
    if (eq < 0 || eq >= end) throw invalidArgument('tar PAX header: record without "="');
    const key = data.toString('utf8', space + 1, eq);
    const value = data.subarray(eq + 1, end - 1);
    pos = end;
    if (key === SPARSE_OFFSET || key === SPARSE_NUMBYTES) {
      const text = value.toString('latin1');
      if ((key === SPARSE_OFFSET) !== (sparsePairs.length % 2 === 0) || text.includes(',')) {
        throw invalidArgument('tar PAX header: GNU.sparse.offset and GNU.sparse.numbytes records out of order');
      }
      sparsePairs.push(text);
      continue;
    }
    records.set(key, value);
  }
  if (sparsePairs.length > 0) records.set(SPARSE_MAP, Buffer.from(sparsePairs.join(','), 'latin1'));
  return records;
}

const SPARSE_OFFSET = 'GNU.sparse.offset';
const SPARSE_NUMBYTES = 'GNU.sparse.numbytes';
const SPARSE_MAP = 'GNU.sparse.map';

const XATTR_PAX_PREFIX = 'SCHILY.xattr.';

function paxNumber(records: Map<string, Buffer>, key: string, parse: (s: string) => number): number | undefined {
  const raw = records.get(key);
  if (raw === undefined) return undefined;
  const value = parse(raw.toString('utf8'));
  if (!Number.isFinite(value)) throw invalidArgument(`tar PAX header: ${key} ${JSON.stringify(raw.toString('utf8'))} is not a number`);
  return value;
}

const parseInteger = (s: string): number => (/^\d+$/.test(s) ? Number(s) : NaN);

/** A PAX time ("1700000000.123456789", "-5.25") to the nanosecond, as Go's parsePAXTime reads it. */
function paxTime(records: Map<string, Buffer>, key: string): Timespec | undefined {
  const raw = records.get(key);
  if (raw === undefined) return undefined;
  const text = raw.toString('latin1');
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  const whole = match === null ? NaN : Number(match[2]);
  if (match === null || !Number.isSafeInteger(whole)) throw invalidArgument(`tar PAX header: ${key} ${JSON.stringify(text)} is not a time`);
  const nsec = Number(((match[3] ?? '') + '000000000').slice(0, 9));
  if (match[1] !== '-') return { sec: whole, nsec };
  return nsec === 0 ? { sec: -whole, nsec: 0 } : { sec: -whole - 1, nsec: 1e9 - nsec };
}

/** The entry an entry-typed header describes, with the PAX records and GNU long names before it. */
export function entryHeader(
  raw: RawHeader,
  type: EntryType,
  pax: Map<string, Buffer> | undefined,
  longName: string | undefined,
  longLink: string | undefined,
): TarHeader {
  const header: TarHeader = {
    name: longName ?? raw.name,
    type,
    mode: raw.mode,
    uid: raw.uid,
    gid: raw.gid,
    size: raw.size,
    mtime: { sec: raw.mtime, nsec: 0 },
    atime: undefined,
    linkname: longLink ?? raw.linkname,
    devmajor: raw.devmajor,
    devminor: raw.devminor,
    xattrs: [],
  };
  if (pax === undefined) return header;
  const path = pax.get('path');
  if (path !== undefined) header.name = byteString(path);
  const linkpath = pax.get('linkpath');
  if (linkpath !== undefined) header.linkname = byteString(linkpath);
  header.size = paxNumber(pax, 'size', parseInteger) ?? header.size;
  header.uid = paxNumber(pax, 'uid', parseInteger) ?? header.uid;
  header.gid = paxNumber(pax, 'gid', parseInteger) ?? header.gid;
  header.mtime = paxTime(pax, 'mtime') ?? header.mtime;
  header.atime = paxTime(pax, 'atime');
  for (const [key, value] of pax) {
    if (key.startsWith(XATTR_PAX_PREFIX)) header.xattrs.push([key.slice(XATTR_PAX_PREFIX.length), value]);
  }
  if (type === 'file' || type === 'contiguous-file') applySparse(header, pax);
  return header;
}

/** Reads GNU sparse records as Go's archive/tar (readGNUSparsePAXHeaders) reads them. */
function applySparse(header: TarHeader, pax: Map<string, Buffer>): void {
  const major = pax.get('GNU.sparse.major')?.toString('latin1');
  const minor = pax.get('GNU.sparse.minor')?.toString('latin1');
  let format1: boolean;
  if (major === '0' && (minor === '0' || minor === '1')) format1 = false;
  else if (major === '1' && minor === '0') format1 = true;
  else if (major !== undefined || minor !== undefined) return; // an unknown version: plain data, as Go reads it
  else if ((pax.get(SPARSE_MAP)?.length ?? 0) > 0) format1 = false; // 0.0 and 0.1 name no version
  else return;
  const name = pax.get('GNU.sparse.name');
  if (name !== undefined && name.length > 0) header.name = byteString(name);
  const storedSize = header.size;
  if (!Number.isSafeInteger(storedSize)) throw invalidArgument(`tar entry "${header.name}": bad size`);
  header.size = paxNumber(pax, 'GNU.sparse.size', parseInteger) ?? paxNumber(pax, 'GNU.sparse.realsize', parseInteger) ?? header.size;
  header.sparse = { map: format1 ? undefined : sparseMap0x1(pax), storedSize };
}

function sparseMap0x1(pax: Map<string, Buffer>): Array<[number, number]> {
  const count = paxNumber(pax, 'GNU.sparse.numblocks', parseInteger);
  const text = pax.get(SPARSE_MAP)?.toString('latin1') ?? '';
  const numbers = text === '' ? [] : text.split(',').map(parseInteger);
  if (count === undefined || numbers.length !== 2 * count || numbers.some((n) => !Number.isSafeInteger(n))) {
    throw invalidArgument('tar PAX header: GNU sparse map does not match its number of blocks');
  }
  const map: Array<[number, number]> = [];
  for (let i = 0; i < numbers.length; i += 2) map.push([numbers[i] as number, numbers[i + 1] as number]);
  return map;
}
