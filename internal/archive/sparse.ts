// GNU sparse files (PAX formats 0.0, 0.1, 1.0): the archive holds the data fragments of a file
// with holes one after the other (for 1.0 after a map of them). SparseBody puts each fragment at
// its offset and leaves the holes as holes, so the file reads as Go's archive/tar expands it for
// containerd (which writes the holes as zeros: the same bytes, on fewer blocks here).
import { invalidArgument } from '../errdefs/errors';
import { BLOCK_SIZE } from './tar_header';

/** Where a sparse file's data goes: fragments as writes, holes as skips where it can. */
export interface SparseSink {
  write(chunk: Buffer): void;
  /** `length` bytes of zeros, not written; without it they are written. */
  hole?(length: number): void;
  end(): void;
}

const ZEROS = Buffer.alloc(64 * 1024);

/** Bound on a format 1.0 map (it sits in the data, read into memory): Go's 1 MiB for special files. */
export const SPARSE_MAP_MAX = 1 << 20;

export class SparseBody {
  private map: Array<[number, number]> | undefined;
  private mapText: Buffer[] = [];
  private mapBytes = 0;
  /** Newlines in mapText so far, and the number of fragments its first line announces. */
  private mapLines = 0;
  private mapCount: number | undefined;
  private fragment = 0;
  /** Bytes of the current fragment already written. */
  private done = 0;
  /** File offset reached so far. */
  private position = 0;

  constructor(
    private readonly name: string,
    map: Array<[number, number]> | undefined,
    private readonly size: number,
    private readonly storedSize: number,
    private readonly sink: SparseSink | undefined,
  ) {
    if (map !== undefined) this.setMap(map, storedSize);
  }

  write(chunk: Buffer): void {
    let rest = chunk;
    if (this.map === undefined) {
      rest = this.readMap(rest);
      if (this.map === undefined) return;
    }
    const map = this.map;
    while (rest.length > 0) {
      const [offset, length] = map[this.fragment] ?? this.refuse('has more data than its sparse map describes');
      if (this.done === 0 && offset > this.position) {
        this.skip(offset - this.position);
        this.position = offset;
      }
      const n = Math.min(length - this.done, rest.length);
      this.sink?.write(rest.subarray(0, n));
      rest = rest.subarray(n);
      this.done += n;
      this.position += n;
      if (this.done === length) {
        this.fragment++;
        this.done = 0;
      }
    }
  }

  end(): void {
    const map = this.map;
    // Empty fragments (GNU tar ends a file with a trailing hole with one) take no data.
    while (map !== undefined && this.done === 0 && map[this.fragment]?.[1] === 0) this.fragment++;
    if (map === undefined || this.fragment < map.length) this.refuse('has less data than its sparse map describes');
    if (this.size > this.position) this.skip(this.size - this.position);
    this.sink?.end();
  }

  private skip(length: number): void {
    const sink = this.sink;
    if (sink === undefined) return; // an entry nobody writes (a whiteout, the root): nothing to fill
    if (sink.hole !== undefined) return sink.hole(length);
    for (let left = length; left > 0; left -= ZEROS.length) sink.write(ZEROS.subarray(0, Math.min(left, ZEROS.length)));
  }

  /**
   * Gathers the 1.0 map (decimal numbers, one a line, in whole blocks) and parses it once it has
   * every line it announces (newlines are counted block by block, as Go's readGNUSparseMap1x0
   * does, so a big map costs one pass); returns what follows it.
   */
  private readMap(chunk: Buffer): Buffer {
    let rest = chunk;
    while (rest.length > 0 && this.map === undefined) {
      const n = Math.min(BLOCK_SIZE - (this.mapBytes % BLOCK_SIZE), rest.length);
      const part = rest.subarray(0, n);
      this.mapText.push(part);
      this.mapBytes += n;
      for (let i = part.indexOf(0x0a); i >= 0; i = part.indexOf(0x0a, i + 1)) this.mapLines++;
      rest = rest.subarray(n);
      if (this.mapBytes % BLOCK_SIZE !== 0) continue;
      if (this.mapBytes > SPARSE_MAP_MAX) this.refuse(`has a sparse map over ${SPARSE_MAP_MAX} bytes`);
      if (this.mapLines === 0) continue;
      const text = () => Buffer.concat(this.mapText).toString('latin1');
      if (this.mapCount === undefined) {
        const head = text();
        const first = head.slice(0, head.indexOf('\n'));
        this.mapCount = parseDecimal(first) ?? this.refuse('has a malformed sparse map');
        if (this.mapCount > SPARSE_MAP_MAX) this.refuse('has a malformed sparse map');
      }
      if (this.mapLines < 1 + 2 * this.mapCount) continue;
      const numbers = text().split('\n');
      const map: Array<[number, number]> = [];
      for (let i = 0; i < this.mapCount; i++) {
        const offset = parseDecimal(numbers[1 + 2 * i] as string);
        const length = parseDecimal(numbers[2 + 2 * i] as string);
        if (offset === undefined || length === undefined) this.refuse('has a malformed sparse map');
        map.push([offset, length]);
      }
      this.mapText = [];
      this.setMap(map, this.storedSize - this.mapBytes);
    }
    return rest;
  }

  /** Checks the fragments as Go's validateSparseEntries does, and that the data is all theirs. */
  private setMap(map: Array<[number, number]>, dataBytes: number): void {
    let end = 0;
    let total = 0;
    for (const [offset, length] of map) {
      if (offset < end || length < 0 || offset + length > this.size) this.refuse('has a sparse map with overlapping or out-of-file fragments');
      end = offset + length;
      total += length;
    }
    if (total !== dataBytes) this.refuse(`has ${dataBytes} bytes of data where its sparse map describes ${total}`);
    this.map = map;
  }

  private refuse(why: string): never {
    throw invalidArgument(`tar entry "${this.name}": ${why}`);
  }
}

function parseDecimal(text: string): number | undefined {
  if (!/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}
