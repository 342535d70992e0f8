// Layers applied on worker threads (apply_worker.ts) instead of berthd's own: extracting a layer is
// all synchronous file system calls, and on berthd's thread it held up everything else, the
// download of the next layer among them (a pull of the bench's 3-layer image fetched its 50 MiB
// layer only once the 4,000-file layer was written). Here the blob is read on berthd's thread (the
// reads themselves run in libuv's pool) and its bytes go to a worker, a few chunks ahead; the
// worker decompresses, hashes, parses and writes. A worker is started on first use and ends after
// IDLE_MS without a job, so an idle berthd carries none.
//
// Where no worker script sits beside this module (TypeScript run from source, as under ts-jest),
// layers are applied in this thread as before.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { messageOf } from '../errdefs/errors';
import { trimMalloc } from '../sys/malloc';
import { applyLayer, type ApplyOptions, type ApplyResult } from './apply';
import { receivedError, type FromWorker, type ToWorker } from './apply_messages';

/** Workers at most: the unpacker extracts up to 3 layers at once; more jobs wait for one. */
const MAX_WORKERS = 3;
/** A worker without a job this long ends. */
const IDLE_MS = 5_000;
/** Chunks sent and not yet taken by the worker (the reader's chunks are 64 KiB). */
const CHUNKS_AHEAD = 8;

export const APPLY_WORKER_FILE = 'apply_worker.js';

interface IdleWorker {
  worker: Worker;
  timer: NodeJS.Timeout;
}

export class LayerApplier {
  private readonly idle: IdleWorker[] = [];
  private started = 0;
  private readonly waiting: Array<(worker: Worker) => void> = [];

  /** `workerFile`: the worker script (apply_worker.ts, built). */
  constructor(
    private readonly workerFile: string,
    private readonly maxWorkers = MAX_WORKERS,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Worker threads alive now, busy or idle. */
  get workers(): number {
    return this.started;
  }

  /** applyLayer on a worker thread: same result, same errors (kind and message). */
  async apply(target: string, source: AsyncIterable<Buffer | Uint8Array>, opts: ApplyOptions = {}): Promise<ApplyResult> {
    const worker = await this.acquire();
    let healthy = false;
    try {
      const result = await runJob(worker, target, source, opts);
      healthy = true;
      return result;
    } catch (err) {
      healthy = !(err instanceof WorkerLost);
      throw err;
    } finally {
      this.release(worker, healthy);
    }
  }

  private async acquire(): Promise<Worker> {
    const idle = this.idle.pop();
    if (idle) {
      clearTimeout(idle.timer);
      return idle.worker;
    }
    if (this.started < this.maxWorkers) {
      this.started++;
      // Not tracking fds: the archive code opens most of its fds through berth's addon and closes
      // them with fs.closeSync, which a tracking worker warns about at every close; it closes all
      // it opens, and an idle worker (the only kind terminated) holds none.
      const worker = new Worker(this.workerFile, { trackUnmanagedFds: false });
      worker.unref(); // never what keeps berthd running
      worker.on('error', () => undefined); // a job's own listener reports it; an idle worker's ends it
      worker.once('exit', () => this.forget(worker));
      return worker;
    }
    return new Promise<Worker>((resolve) => this.waiting.push(resolve));
  }

  private release(worker: Worker, healthy: boolean): void {
    if (!healthy) {
      void worker.terminate();
      return;
    }
    const next = this.waiting.shift();
    if (next) {
      next(worker);
      return;
    }
    const entry: IdleWorker = {
      worker,
      // Out of the idle list before it is told to end, so no job is given to a worker that is ending.
      timer: setTimeout(() => {
        this.idle.splice(this.idle.indexOf(entry), 1);
        void worker.terminate();
      }, this.idleMs),
    };
    entry.timer.unref();
    this.idle.push(entry);
  }

  /** A worker that ended (idle, terminated or crashed) gives its place to a new one. */
  private forget(worker: Worker): void {
    const at = this.idle.findIndex((w) => w.worker === worker);
    if (at >= 0) clearTimeout(this.idle.splice(at, 1)[0]!.timer);
    this.started--;
    // glibc keeps the malloc arenas of ended threads, with what their last layer left free in them
    // (~20 MiB more RSS after an import, 8 s later): given back once no worker is left.
    if (this.started === 0) trimMalloc();
    const next = this.waiting.shift();
    if (next) void this.acquire().then(next);
  }
}

/** The worker died during a job: it is not given another. */
class WorkerLost extends Error {}

/**
 * Sends one job to `worker` and pumps `source` into it; settles only once the worker has finished
 * with the target directory, whether the job succeeded, failed or the source broke.
 */
function runJob(worker: Worker, target: string, source: AsyncIterable<Buffer | Uint8Array>, opts: ApplyOptions): Promise<ApplyResult> {
  return new Promise<ApplyResult>((resolve, reject) => {
    let inFlight = 0;
    let settled = false;
    let sourceError: unknown;
    let credit: (() => void) | undefined;
    const send = (message: ToWorker, transfer?: ArrayBuffer[]) => worker.postMessage(message, transfer);
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      credit?.();
      outcome();
    };
    const onMessage = (message: FromWorker) => {
      if (message.type === 'ack') {
        inFlight--;
        const wake = credit;
        credit = undefined;
        wake?.();
      } else if (message.type === 'done') {
        finish(() => (sourceError === undefined ? resolve(message.result) : reject(sourceError)));
      } else {
        finish(() => reject(sourceError ?? receivedError(message.error)));
      }
    };
    const lost = (what: string) => finish(() => reject(new WorkerLost(`layer apply worker ${what} while applying to ${target}`)));
    const onError = (err: Error) => lost(`failed (${messageOf(err)})`);
    const onExit = (code: number) => lost(`exited (code ${code})`);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    send({ type: 'job', target, opts });
    void (async () => {
      try {
        for await (const chunk of source) {
          if (settled) return;
          // A copy of exactly the chunk's bytes, moved rather than cloned: a chunk may view a
          // larger buffer, which a clone would copy whole.
          const data = new Uint8Array(chunk);
          send({ type: 'chunk', data }, [data.buffer]);
          if (++inFlight >= CHUNKS_AHEAD) await new Promise<void>((resolve) => (credit = resolve));
        }
        if (!settled) send({ type: 'end' });
      } catch (err) {
        sourceError = err;
        if (!settled) send({ type: 'abort', message: `read layer blob: ${messageOf(err)}` });
      }
    })();
  });
}

/** The process's applier: null where no worker script sits beside this module, undefined until looked for. */
let shared: LayerApplier | null | undefined;

/** applyLayer, on a worker thread where the build has one, else in this thread. */
export function applyLayerOffThread(target: string, source: AsyncIterable<Buffer | Uint8Array>, opts: ApplyOptions = {}): Promise<ApplyResult> {
  if (shared === undefined) {
    const file = join(__dirname, APPLY_WORKER_FILE);
    shared = existsSync(file) ? new LayerApplier(file) : null;
  }
  return shared ? shared.apply(target, source, opts) : applyLayer(target, source, opts);
}
