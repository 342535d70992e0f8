// A worker thread applying layers for berthd (apply_thread.ts): one job at a time, its blob's bytes
// arriving as messages. Here the decompression's output, the diffID hash, the tar parsing and the
// thousands of file system calls of a layer run beside berthd's thread instead of on it.
import { parentPort } from 'node:worker_threads';
import { applyLayer } from './apply';
import { sendableError, type FromWorker, type ToWorker } from './apply_messages';

/** The current job's bytes as an async iterable; each chunk taken is acknowledged. */
class ChunkQueue implements AsyncIterable<Buffer> {
  private readonly chunks: Uint8Array[] = [];
  private ended = false;
  private abortMessage: string | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly ack: () => void) {}

  push(data: Uint8Array): void {
    this.chunks.push(data);
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  abort(message: string): void {
    this.abortMessage = message;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    for (;;) {
      if (this.abortMessage !== undefined) throw new Error(this.abortMessage);
      const data = this.chunks.shift();
      if (data !== undefined) {
        this.ack();
        yield Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      } else if (this.ended) {
        return;
      } else {
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    }
  }
}

if (parentPort) {
  const port = parentPort;
  const send = (message: FromWorker) => port.postMessage(message);
  let queue: ChunkQueue | undefined;
  port.on('message', (message: ToWorker) => {
    switch (message.type) {
      case 'job': {
        const jobQueue = new ChunkQueue(() => send({ type: 'ack' }));
        queue = jobQueue;
        applyLayer(message.target, jobQueue, message.opts).then(
          (result) => send({ type: 'done', result }),
          (err: unknown) => send({ type: 'failed', error: sendableError(err) }),
        );
        break;
      }
      case 'chunk':
        queue?.push(message.data);
        break;
      case 'end':
        queue?.end();
        break;
      case 'abort':
        queue?.abort(message.message);
        break;
    }
  });
}
