// Work that several callers wait for (one pull of a reference, one download of a blob) and that is
// stopped once every one of them has gone away, as containerd stops a fetch when the contexts of
// its requests end: a client that gives up must not leave a download running forever, holding a
// socket, an ingest file and the unpack locks of every image sharing its layers.
import { canceled } from '../../errdefs/errors';

export class SharedTask<T> {
  private readonly controller = new AbortController();
  private waiting = 0;
  readonly result: Promise<T>;

  /** Starts `run` at once; its signal aborts when the last caller who joined has gone away. */
  constructor(run: (signal: AbortSignal) => Promise<T>) {
    this.result = run(this.controller.signal);
    this.result.catch(() => undefined); // each caller hears of a failure through join()
  }

  /** Every caller left and the work was told to stop: a new caller must start it again. */
  get abandoned(): boolean {
    return this.controller.signal.aborted;
  }

  /**
   * Waits for the result as one more caller. When `signal` aborts, this caller's wait ends at once
   * (Canceled), and the work is stopped if no one else waits for it. A caller without a signal
   * keeps it going.
   */
  join(signal: AbortSignal | undefined, what: string): Promise<T> {
    if (signal?.aborted) return Promise.reject(canceled(`${what}: canceled`));
    this.waiting++;
    if (!signal) return this.result;
    return new Promise<T>((resolve, reject) => {
      const leave = () => {
        if (--this.waiting === 0) this.controller.abort();
        reject(canceled(`${what}: canceled`));
      };
      signal.addEventListener('abort', leave, { once: true });
      this.result.then(
        (value) => {
          signal.removeEventListener('abort', leave);
          resolve(value);
        },
        (err: unknown) => {
          signal.removeEventListener('abort', leave);
          reject(err);
        },
      );
    });
  }
}
