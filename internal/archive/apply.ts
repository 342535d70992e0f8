// applyLayer: streams one layer tar (gzip or plain, sniffed) into a directory, entry by entry,
// hashing the uncompressed bytes on the way to get the layer's diffID.
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { BerthError, invalidArgument, messageOf } from '../errdefs/errors';
import { decompressed, type Compression } from './decompress';
import { shown } from './byte_names';
import { EntryWriter, type WhiteoutMode } from './entries';
import { TarParser } from './tar_reader';

export interface ApplyOptions {
  /** "sha256:<hex>" the uncompressed stream must hash to; a mismatch fails the apply. */
  expectedDiffID?: string;
  /** Default "overlay": whiteouts stored as overlayfs does (for an empty per-layer directory). */
  whiteouts?: WhiteoutMode;
  /**
   * Bound on the paths apply remembers until the layer's end (directories, implied parents, and
   * in "remove" mode every written path); past it the layer is refused. Default
   * MAX_REMEMBERED_PATHS.
   */
  maxRememberedPaths?: number;
}

export interface ApplyResult {
  /** sha256 of the uncompressed tar stream. */
  diffID: string;
  /** Bytes of the uncompressed tar stream. */
  size: number;
  compression: Compression;
  /**
   * Directories (relative to target) the tar did not describe: created only as parents of
   * entries, and "" (the root, whose own entry is ignored). A layer extracted on its own should
   * take their attributes from its parents, as it would have found them there.
   */
  impliedDirs: string[];
  /**
   * In "overlay" mode, the hard links (entry names) whose target is not in this layer, left
   * unwritten: the target may be in a lower layer, so the layer must be applied on its parents.
   */
  linksOutside: string[];
}

// The entries are written with synchronous calls; after this long, give the event loop a turn
// so RPCs keep being answered during a big unpack.
const SLICE_MS = 8;

/**
 * Applies the layer in `source` to `target`. On failure the target holds a partial layer: the
 * caller owns the directory (an extract snapshot) and removes it.
 */
export async function applyLayer(target: string, source: AsyncIterable<Buffer | Uint8Array>, opts: ApplyOptions = {}): Promise<ApplyResult> {
  const { stream, compression } = await decompressed(source);
  const hash = createHash('sha256');
  let size = 0;
  let writer: EntryWriter | undefined;
  let impliedDirs: string[];
  let linksOutside: string[];
  try {
    writer = new EntryWriter(target, { whiteouts: opts.whiteouts ?? 'overlay', maxRememberedPaths: opts.maxRememberedPaths });
    const parser = new TarParser(writer);
    let sliceStart = performance.now();
    // Reading goes on after the end-of-archive blocks: those bytes count toward the diffID too.
    for await (const chunk of stream) {
      const buf = chunk as Buffer;
      hash.update(buf);
      size += buf.length;
      parser.push(buf);
      while (parser.step()) {
        if (performance.now() - sliceStart >= SLICE_MS) {
          await yieldToLoop();
          sliceStart = performance.now();
        }
      }
    }
    parser.end();
    impliedDirs = writer.finish();
    linksOutside = writer.linksOutside;
  } catch (err) {
    stream.destroy();
    // Entry names in messages are byte strings: shown as the UTF-8 they most often are.
    if (err instanceof BerthError) throw shown(err.message) === err.message ? err : new BerthError(err.kind, shown(err.message), { cause: err });
    throw invalidArgument(`apply layer to ${target}: ${shown(messageOf(err))}`, err);
  } finally {
    writer?.close();
  }
  const diffID = `sha256:${hash.digest('hex')}`;
  if (opts.expectedDiffID !== undefined && opts.expectedDiffID !== diffID) {
    throw invalidArgument(`layer diffID mismatch in ${target}: expected ${opts.expectedDiffID}, got ${diffID}`);
  }
  return { diffID, size, compression, impliedDirs, linksOutside };
}
