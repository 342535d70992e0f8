// CRI container events (GetContainerEvents): CREATED / STARTED / STOPPED / DELETED for containers and
// sandboxes, fanned out to every subscriber. A slow subscriber gets a bounded backlog, then is dropped
// (kubelet reconnects), so one stuck client cannot grow berth's memory without bound. When berthd
// stops, every subscription ends at once (shutDown), so an open stream never holds up the stop.

export type ContainerEventType =
  | 'CONTAINER_CREATED_EVENT'
  | 'CONTAINER_STARTED_EVENT'
  | 'CONTAINER_STOPPED_EVENT'
  | 'CONTAINER_DELETED_EVENT';

export interface CriEvent {
  containerId: string;
  type: ContainerEventType;
  createdAt: string; // nanoseconds
  sandboxId: string;
}

export interface Subscription {
  /** The next event; undefined once the subscription is closed and its backlog delivered. */
  next(): Promise<CriEvent | undefined>;
  close(): void;
  /** True when it was closed because the broadcaster shut down (berthd stopping). */
  readonly shutDown: boolean;
}

const MAX_BACKLOG = 1024;

export class EventBroadcaster {
  private readonly subscribers = new Set<Subscriber>();
  private stopped = false;

  publish(event: CriEvent): void {
    for (const s of this.subscribers) {
      if (!s.push(event)) this.subscribers.delete(s);
    }
  }

  subscribe(): Subscription {
    const s = new Subscriber(() => this.subscribers.delete(s));
    if (this.stopped) s.shutdown();
    else this.subscribers.add(s);
    return s;
  }

  /** Ends every subscription, and any made later, as shut down. */
  shutdown(): void {
    this.stopped = true;
    for (const s of [...this.subscribers]) s.shutdown();
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }
}

class Subscriber implements Subscription {
  private readonly queue: CriEvent[] = [];
  private waiter: ((e: CriEvent | undefined) => void) | undefined;
  private closed = false;
  private endedByShutdown = false;

  constructor(private readonly onClose: () => void) {}

  push(event: CriEvent): boolean {
    if (this.closed) return false;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w(event);
      return true;
    }
    if (this.queue.length >= MAX_BACKLOG) {
      this.close();
      return false;
    }
    this.queue.push(event);
    return true;
  }

  next(): Promise<CriEvent | undefined> {
    const head = this.queue.shift();
    if (head || this.closed) return Promise.resolve(head);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  get shutDown(): boolean {
    return this.endedByShutdown;
  }

  shutdown(): void {
    if (!this.closed) this.endedByShutdown = true;
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
    this.waiter?.(undefined);
    this.waiter = undefined;
  }
}
