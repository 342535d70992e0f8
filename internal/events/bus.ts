// In-process event bus. publish() hands an event to every matching subscriber synchronously, in
// the order publish was called, so per-container order (Create < Start < Exit < Delete) is the
// order the shim sent. A subscriber that throws is logged and does not affect the others.
import type { Logger } from '../log/logger';
import { silentLogger } from '../log/logger';
import type { TaskEvent, TaskEventKind } from './types';

export interface EventFilter {
  namespace?: string;
  containerId?: string;
  kinds?: readonly TaskEventKind[];
}

export type EventHandler = (event: TaskEvent) => void;

export function matches(filter: EventFilter, event: TaskEvent): boolean {
  if (filter.namespace !== undefined && filter.namespace !== event.namespace) return false;
  if (filter.containerId !== undefined && filter.containerId !== event.containerId) return false;
  if (filter.kinds !== undefined && !filter.kinds.includes(event.kind)) return false;
  return true;
}

/** Events buffered for a consumer that pulls with next() or for-await. */
export interface EventStream extends AsyncIterable<TaskEvent> {
  next(): Promise<TaskEvent>;
  close(): void;
}

export class EventBus {
  private readonly subscribers = new Set<{ filter: EventFilter; handler: EventHandler }>();

  constructor(private readonly log: Logger = silentLogger) {}

  publish(event: TaskEvent): void {
    for (const sub of [...this.subscribers]) {
      if (!matches(sub.filter, event)) continue;
      try {
        sub.handler(event);
      } catch (err) {
        this.log.error('event subscriber failed', { topic: event.topic, containerId: event.containerId, error: err });
      }
    }
  }

  /** Returns the unsubscribe function. */
  subscribe(filter: EventFilter, handler: EventHandler): () => void {
    const sub = { filter, handler };
    this.subscribers.add(sub);
    return () => void this.subscribers.delete(sub);
  }

  /** A pull-style subscription; events that arrive before next() is called are queued. */
  stream(filter: EventFilter): EventStream {
    const queue: TaskEvent[] = [];
    const waiters: Array<{ resolve(e: TaskEvent): void; reject(err: Error): void }> = [];
    let closed = false;
    const unsubscribe = this.subscribe(filter, (event) => {
      const waiter = waiters.shift();
      if (waiter) waiter.resolve(event);
      else queue.push(event);
    });
    const next = (): Promise<TaskEvent> => {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      if (closed) return Promise.reject(new Error('event stream closed'));
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    };
    const close = (): void => {
      if (closed) return;
      closed = true;
      unsubscribe();
      for (const w of waiters.splice(0)) w.reject(new Error('event stream closed'));
    };
    return {
      next,
      close,
      async *[Symbol.asyncIterator]() {
        while (!closed || queue.length > 0) {
          try {
            yield await next();
          } catch {
            return;
          }
        }
      },
    };
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }
}
