// SPDY/3 header-block compression: one zlib stream per direction for the whole connection, primed
// with the SPDY/3 dictionary, each block ended by a sync flush. zlib is asynchronous in Node, so
// operations are serialized: block N+1 may only be processed after block N. A block may inflate
// to at most MAX_HEADER_BLOCK bytes: a few KiB of zeros deflate to a gigabyte, so the output is
// counted as it comes and the context abandoned (the connection is lost) once it passes the cap.
import { constants, createDeflate, createInflate, type Deflate, type Inflate } from 'node:zlib';
import spdyDictionaries from 'spdy-transport/lib/spdy-transport/protocol/spdy/dictionary';
import { MAX_HEADER_BLOCK, protocolError } from './frames';

// The dictionary is a constant of the SPDY/3 specification; spdy-transport carries a copy of it.
const SPDY3_DICTIONARY: Buffer = spdyDictionaries[3];

type ZStream = Deflate | Inflate;

/** Runs one chunk through a zlib stream with a sync flush and returns all output for it (at most `maxOutput` bytes). */
function runThrough(stream: ZStream, input: Buffer, maxOutput: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    let length = 0;
    const onError = (err: Error) => {
      stream.removeListener('data', onData);
      stream.removeListener('error', onError);
      reject(err);
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length <= maxOutput) {
        out.push(chunk);
        return;
      }
      out.length = 0;
      onError(protocolError(`header block inflates past the ${maxOutput}-byte limit`));
      stream.close(); // stops inflating; the context is useless from here on anyway
    };
    stream.on('data', onData);
    stream.once('error', onError);
    stream.write(input);
    stream.flush(constants.Z_SYNC_FLUSH, () => {
      stream.removeListener('data', onData);
      stream.removeListener('error', onError);
      resolve(Buffer.concat(out));
    });
  });
}

class SerializedZlib {
  private tail: Promise<unknown> = Promise.resolve();
  private failed: Error | undefined;

  constructor(
    private readonly stream: ZStream,
    private readonly maxOutput = Number.POSITIVE_INFINITY,
  ) {
    // Each run listens for errors while it lasts; one after close() must not go unhandled.
    stream.on('error', () => undefined);
  }

  run(input: Buffer): Promise<Buffer> {
    const result = this.tail.then(() => {
      if (this.failed) throw this.failed;
      return runThrough(this.stream, input, this.maxOutput).catch((err: Error) => {
        // A broken zlib context cannot decode anything after it: the connection is lost.
        this.failed = err;
        throw err;
      });
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  close(): void {
    this.stream.close();
  }
}

export class HeaderCompressor {
  private readonly zlib = new SerializedZlib(createDeflate({ dictionary: SPDY3_DICTIONARY }));
  compress(block: Buffer): Promise<Buffer> {
    return this.zlib.run(block);
  }
  close(): void {
    this.zlib.close();
  }
}

export class HeaderDecompressor {
  private readonly zlib = new SerializedZlib(createInflate({ dictionary: SPDY3_DICTIONARY }), MAX_HEADER_BLOCK);
  decompress(block: Buffer): Promise<Buffer> {
    return this.zlib.run(block);
  }
  close(): void {
    this.zlib.close();
  }
}
