// Terminal resize events: a stream of concatenated JSON objects {"Width":80,"Height":24} (Go's
// json.Encoder adds a newline after each, but nothing requires one). Decoded into an async
// iterable that ends with the stream; a malformed object ends it as kubelet's decoder does, and so
// does an object that grows past any plausible size (its text would otherwise be kept unbounded).
import type { Readable } from 'node:stream';
import type { TerminalSize } from './runtime';

/** A resize object is about 30 bytes; anything this long is not one. */
export const MAX_RESIZE_OBJECT_LENGTH = 4096;

/** Splits text into complete top-level JSON objects, keeping the unfinished tail. */
export class JsonObjectSplitter {
  private pending = '';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private scanned = 0;

  constructor(private readonly maxObjectLength = Number.POSITIVE_INFINITY) {}

  /** Set once an unfinished object grew past the bound: what follows cannot be trusted. */
  overflowed = false;

  /** Feeds text; returns the complete objects it finished (see overflowed). */
  push(text: string): string[] {
    this.pending += text;
    const out: string[] = [];
    let start = this.pending.indexOf('{');
    if (this.depth === 0 && start < 0) {
      this.pending = '';
      this.scanned = 0;
      return out;
    }
    if (this.depth === 0 && start > 0) {
      this.pending = this.pending.slice(start);
      this.scanned = 0;
    }
    start = 0;
    for (let i = this.scanned; i < this.pending.length; i++) {
      const ch = this.pending[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (ch === '\\') this.escaped = true;
        else if (ch === '"') this.inString = false;
        continue;
      }
      if (ch === '"') this.inString = true;
      else if (ch === '{') {
        if (this.depth === 0) start = i;
        this.depth++;
      } else if (ch === '}' && this.depth > 0) {
        this.depth--;
        if (this.depth === 0) out.push(this.pending.slice(start, i + 1));
      }
    }
    if (this.depth === 0) {
      this.pending = '';
      this.scanned = 0;
    } else {
      this.pending = this.pending.slice(start);
      this.scanned = this.pending.length;
      if (this.pending.length > this.maxObjectLength) {
        this.overflowed = true;
        this.pending = '';
        this.depth = 0;
        this.scanned = 0;
        this.inString = false;
        this.escaped = false;
      }
    }
    return out;
  }
}

function toTerminalSize(json: string): TerminalSize | undefined {
  try {
    const v = JSON.parse(json) as { Width?: unknown; Height?: unknown };
    const width = Number(v.Width ?? 0);
    const height = Number(v.Height ?? 0);
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 0 || height < 0) return undefined;
    return { width, height };
  } catch {
    return undefined;
  }
}

/** Reads resize events from `source` until it ends or sends something that is not one. */
export async function* decodeResizeEvents(source: Readable): AsyncGenerator<TerminalSize> {
  const splitter = new JsonObjectSplitter(MAX_RESIZE_OBJECT_LENGTH);
  for await (const chunk of source) {
    const text = Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    for (const json of splitter.push(text)) {
      const size = toTerminalSize(json);
      if (!size) return;
      yield size;
    }
    if (splitter.overflowed) return;
  }
}
