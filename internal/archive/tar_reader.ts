// A push parser for tar streams: bytes go in as they arrive, entries come out to a sink, and an
// entry's data is handed over as slices of the input chunks (no copy, no per-entry stream). The
// work is cut into small steps so the caller can give the event loop a turn between them.
import { invalidArgument } from '../errdefs/errors';
import {
  BLOCK_SIZE,
  decodeHeader,
  decodePaxRecords,
  entryHeader,
  entryTypeOf,
  metaTypeOf,
  typeflagName,
  type MetaType,
  type TarHeader,
} from './tar_header';
import { byteString } from './byte_names';
import { SparseBody } from './sparse';

/** Where an entry's data goes; write() gets slices that are valid only during the call. */
export interface EntryBody {
  write(chunk: Buffer): void;
  /** A sparse file's hole of `length` zero bytes (sparse.ts); without it, zeros are written. */
  hole?(length: number): void;
  end(): void;
}

export interface TarSink {
  /** A new entry; returns the consumer of its data, or undefined to skip it. */
  entry(header: TarHeader): EntryBody | undefined;
}

// PAX headers and GNU long names are held in memory: cap them so a hostile layer cannot make us
// allocate its size field (Go's archive/tar has the same 1 MiB cap).
export const META_MAX = 1 << 20;
// Names and link targets longer than the kernel's PATH_MAX can name nothing on Linux (containerd
// fails on them with ENAMETOOLONG): refuse them up front instead of carrying megabyte names along.
export const MAX_NAME_BYTES = 4095;

type State =
  | { kind: 'header' }
  | { kind: 'meta'; meta: MetaType; data: Buffer; filled: number; name: string }
  | { kind: 'body'; size: number; missing: number; body: EntryBody | undefined; name: string }
  | { kind: 'padding'; missing: number }
  | { kind: 'done' };

const padding = (size: number): number => (BLOCK_SIZE - (size % BLOCK_SIZE)) % BLOCK_SIZE;

export class TarParser {
  private readonly chunks: Buffer[] = [];
  /** Offset of the first unread byte in chunks[0]. */
  private offset = 0;
  private buffered = 0;
  private state: State = { kind: 'header' };
  private zeroBlocks = 0;
  private pax: Map<string, Buffer> | undefined;
  private longName: string | undefined;
  private longLink: string | undefined;

  constructor(private readonly sink: TarSink) {}

  /** True once the end-of-archive marker (two zero blocks) was read; later bytes are ignored. */
  get finished(): boolean {
    return this.state.kind === 'done';
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.state.kind === 'done') return;
    this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  /** Does one piece of work (a header, or one slice of data); false when it needs more input. */
  step(): boolean {
    const state = this.state;
    switch (state.kind) {
      case 'done':
        return false;
      case 'header': {
        if (this.buffered < BLOCK_SIZE) return false;
        this.onHeader(this.take(BLOCK_SIZE));
        return true;
      }
      case 'padding': {
        if (this.buffered === 0) return false;
        const n = Math.min(state.missing, this.buffered);
        this.skip(n);
        state.missing -= n;
        if (state.missing === 0) this.state = { kind: 'header' };
        return true;
      }
      case 'meta': {
        if (this.buffered === 0) return false;
        const slice = this.slice(state.data.length - state.filled);
        slice.copy(state.data, state.filled);
        state.filled += slice.length;
        if (state.filled === state.data.length) this.onMeta(state.meta, state.data);
        return true;
      }
      case 'body': {
        if (this.buffered === 0) return false;
        const slice = this.slice(state.missing);
        state.missing -= slice.length;
        state.body?.write(slice);
        if (state.missing === 0) this.finishBody(state.size, state.body);
        return true;
      }
    }
  }

  /** The input is over: refuses an archive cut off inside an entry. */
  end(): void {
    const state = this.state;
    if (state.kind === 'done') return;
    if (state.kind === 'header' && this.buffered === 0) {
      if (this.pax !== undefined || this.longName !== undefined || this.longLink !== undefined) {
        throw invalidArgument('tar archive ends after an extended header, without its entry');
      }
      return; // no end-of-archive marker: accepted, as Go's archive/tar does
    }
    const where = state.kind === 'body' || state.kind === 'meta' ? ` inside entry "${state.name}"` : '';
    throw invalidArgument(`tar archive is truncated${where}`);
  }

  private onHeader(block: Buffer): void {
    const raw = decodeHeader(block);
    if (raw === undefined) {
      if (++this.zeroBlocks === 2) {
        this.state = { kind: 'done' };
        this.chunks.length = 0;
        this.buffered = 0;
        this.offset = 0;
      }
      return;
    }
    // One zero block then a header: Go's archive/tar (containerd) refuses the archive, GNU tar
    // stops at the zero block; unpacking on past it would make a third rootfs.
    if (this.zeroBlocks > 0) throw invalidArgument(`tar archive has a lone zero block before entry "${raw.name}"`);
    const meta = metaTypeOf(raw.typeflag);
    if (meta !== undefined) {
      if (raw.size > META_MAX) throw invalidArgument(`tar entry "${raw.name}": ${meta} of ${raw.size} bytes is too large`);
      this.state = { kind: 'meta', meta, data: Buffer.alloc(raw.size), filled: 0, name: raw.name };
      if (raw.size === 0) this.onMeta(meta, this.state.data);
      return;
    }
    const type = entryTypeOf(raw.typeflag);
    if (type === undefined) {
      throw invalidArgument(`tar entry "${raw.name}": unsupported entry type ${typeflagName(raw.typeflag)}`);
    }
    const header = entryHeader(raw, type, this.pax, this.longName, this.longLink);
    this.pax = undefined;
    this.longName = undefined;
    this.longLink = undefined;
    if (!Number.isSafeInteger(header.size) || header.size < 0) throw invalidArgument(`tar entry "${header.name}": bad size`);
    for (const [field, value] of [['name', header.name], ['link target', header.linkname]] as const) {
      const bytes = value.length; // a byte string: one character per byte
      if (bytes > MAX_NAME_BYTES) {
        throw invalidArgument(`tar entry "${header.name.slice(0, 64)}...": ${field} of ${bytes} bytes is longer than ${MAX_NAME_BYTES}`);
      }
    }
    // Only regular files carry data; for other types the size field is not followed by data.
    const hasData = type === 'file' || type === 'contiguous-file';
    const size = hasData ? (header.sparse?.storedSize ?? header.size) : 0;
    if (!hasData) header.size = 0;
    const sparse = header.sparse;
    const sinkBody = this.sink.entry(header);
    const body = sparse === undefined ? sinkBody : new SparseBody(header.name, sparse.map, header.size, sparse.storedSize, sinkBody);
    this.state = { kind: 'body', size, missing: size, body, name: header.name };
    if (size === 0) this.finishBody(0, body);
  }

  private finishBody(size: number, body: EntryBody | undefined): void {
    body?.end();
    const pad = padding(size);
    this.state = pad === 0 ? { kind: 'header' } : { kind: 'padding', missing: pad };
  }

  private onMeta(meta: MetaType, data: Buffer): void {
    const pad = padding(data.length);
    this.state = pad === 0 ? { kind: 'header' } : { kind: 'padding', missing: pad };
    switch (meta) {
      case 'pax-header':
        this.pax = decodePaxRecords(data);
        break;
      case 'pax-global-header':
        // containerd ignores global PAX headers when applying a layer; so do we.
        decodePaxRecords(data);
        break;
      case 'gnu-long-name':
        this.longName = nulTerminated(data);
        break;
      case 'gnu-long-link':
        this.longLink = nulTerminated(data);
        break;
    }
  }

  /** Up to `max` bytes from the front, as a slice of one chunk (no copy). */
  private slice(max: number): Buffer {
    const first = this.chunks[0]!;
    const n = Math.min(max, first.length - this.offset);
    const out = first.subarray(this.offset, this.offset + n);
    this.advance(n);
    return out;
  }

  /** Exactly `n` buffered bytes from the front, copied only when they span chunks. */
  private take(n: number): Buffer {
    const first = this.chunks[0]!;
    if (first.length - this.offset >= n) {
      const out = first.subarray(this.offset, this.offset + n);
      this.advance(n);
      return out;
    }
    const out = Buffer.allocUnsafe(n);
    let filled = 0;
    while (filled < n) {
      const part = this.slice(n - filled);
      part.copy(out, filled);
      filled += part.length;
    }
    return out;
  }

  private skip(n: number): void {
    let left = n;
    while (left > 0) left -= this.slice(left).length;
  }

  private advance(n: number): void {
    this.offset += n;
    this.buffered -= n;
    if (this.offset === this.chunks[0]!.length) {
      this.chunks.shift();
      this.offset = 0;
    }
  }
}

function nulTerminated(data: Buffer): string {
  const nul = data.indexOf(0);
  return byteString(data, 0, nul < 0 ? data.length : nul);
}
