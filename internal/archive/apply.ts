// applyLayer: streams one layer tar (gzip or plain, sniffed) into a directory, entry by entry,
// hashing the uncompressed bytes on the way to get the layer's diffID.
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import * as tar from 'tar-stream';
import { BerthError, internal, invalidArgument, messageOf } from '../errdefs/errors';
import { decompressed, type Compression } from './decompress';
import { EntryWriter, type WhiteoutMode } from './entries';

export interface ApplyOptions {
  /** "sha256:<hex>" the uncompressed stream must hash to; a mismatch fails the apply. */
  expectedDiffID?: string;
  /** Default "overlay": whiteouts stored as overlayfs does (for an empty per-layer directory). */
  whiteouts?: WhiteoutMode;
}

export interface ApplyResult {
  /** sha256 of the uncompressed tar stream. */
  diffID: string;
  /** Bytes of the uncompressed tar stream. */
  size: number;
  compression: Compression;
  /**
   * Directories (relative to target) the tar did not describe: created only as parents of
   * entries, and "" (the root) unless the tar had a "./" entry. A layer extracted on its own
   * should take their attributes from its parents, as it would have found them there.
   */
  impliedDirs: string[];
}

// Give other work on the event loop a turn this often, even when entries come from a buffer.
const ENTRIES_PER_YIELD = 128;

/**
 * Applies the layer in `source` to `target`. On failure the target holds a partial layer: the
 * caller owns the directory (an extract snapshot) and removes it.
 */
export async function applyLayer(target: string, source: AsyncIterable<Buffer | Uint8Array>, opts: ApplyOptions = {}): Promise<ApplyResult> {
  const { stream, compression } = await decompressed(source);
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  const extract = tar.extract();
  const feeding = pipeline(stream, tap, extract);
  const writer = new EntryWriter(target, opts.whiteouts ?? 'overlay');
  let impliedDirs: string[];
  try {
    let count = 0;
    for await (const entry of extract) {
      try {
        await writer.write(entry);
      } catch (err) {
        if (err instanceof BerthError) throw err;
        throw internal(`layer entry "${entry.header.name}": ${messageOf(err)}`, err);
      }
      entry.resume(); // drain whatever the writer did not read (non-file entries carry no data)
      if (++count % ENTRIES_PER_YIELD === 0) await yieldToLoop();
    }
    await feeding; // the bytes after the end-of-archive blocks count toward the diffID too
    impliedDirs = writer.finish();
  } catch (err) {
    stream.destroy();
    extract.destroy();
    await feeding.catch(() => undefined);
    if (err instanceof BerthError) throw err;
    throw invalidArgument(`apply layer to ${target}: ${messageOf(err)}`, err);
  }
  const diffID = `sha256:${hash.digest('hex')}`;
  if (opts.expectedDiffID !== undefined && opts.expectedDiffID !== diffID) {
    throw invalidArgument(`layer diffID mismatch in ${target}: expected ${opts.expectedDiffID}, got ${diffID}`);
  }
  return { diffID, size, compression, impliedDirs };
}
