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
    if (this.sink?.hole !== undefined) return this.sink.hole(length);
    for (let left = length; left > 0; left -= ZEROS.length) this.sink?.write(ZEROS.subarray(0, Math.min(left, ZEROS.length)));
  }

  /** Gathers the 1.0 map (decimal numbers, one a line, in whole blocks); returns what follows it. */
  private readMap(chunk: Buffer): Buffer {
    let rest = chunk;
    while (rest.length > 0 && this.map === undefined) {
      const n = Math.min(BLOCK_SIZE - (this.mapBytes % BLOCK_SIZE), rest.length);
      this.mapText.push(rest.subarray(0, n));
      this.mapBytes += n;
      rest = rest.subarray(n);
      if (this.mapBytes % BLOCK_SIZE !== 0) continue;
      if (this.mapBytes > SPARSE_MAP_MAX) this.refuse(`has a sparse map over ${SPARSE_MAP_MAX} bytes`);
      const numbers = Buffer.concat(this.mapText).toString('latin1').split('\n');
      numbers.pop(); // what follows the last newline: part of no number yet
      const count = numbers.length > 0 ? parseDecimal(numbers[0] as string) : undefined;
      if (count === undefined) {
        if (numbers.length > 0) this.refuse('has a malformed sparse map');
        continue;
      }
      if (numbers.length < 1 + 2 * count) continue;
      const map: Array<[number, number]> = [];
      for (let i = 0; i < count; i++) {
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
