// The events endpoint shims publish to: a ttRPC server on TTRPC_ADDRESS serving
// containerd.services.events.ttrpc.v1.Events/Forward. Each envelope's Any is decoded into a typed
// TaskEvent and published on the bus before the reply is sent, so per-connection order holds.
import { codec, typeNameOfUrl, TypeNames } from '../api/containerd';
import type { ForwardRequest, ForwardRequest__Output } from '../api/gen/containerd/services/events/ttrpc/v1/ForwardRequest';
import { invalidArgument } from '../errdefs/errors';
import type { Logger } from '../log/logger';
import { silentLogger } from '../log/logger';
import { TtrpcServer } from '../ttrpc/server';
import type { EventBus } from './bus';
import { TASK_EVENT_KINDS, timestampToDate, type TaskEvent, type TaskEventKind } from './types';

export const EVENTS_SERVICE = 'containerd.services.events.ttrpc.v1.Events';
const EVENT_PACKAGE = 'containerd.events.';

const forwardCodec = codec<ForwardRequest, ForwardRequest__Output>(TypeNames.ForwardRequest);

function isTaskEventKind(name: string): name is TaskEventKind {
  return (TASK_EVENT_KINDS as readonly string[]).includes(name);
}

/** Decodes a Forward request; returns undefined for event types berth does not know. */
export function decodeForward(payload: Buffer): TaskEvent | undefined {
  const { envelope } = forwardCodec.decode(payload);
  if (!envelope) throw invalidArgument('events Forward: request has no envelope');
  if (!envelope.event) throw invalidArgument(`events Forward: envelope for ${envelope.topic} has no event`);
  const typeName = typeNameOfUrl(envelope.event.type_url);
  const kind = typeName.startsWith(EVENT_PACKAGE) ? typeName.slice(EVENT_PACKAGE.length) : '';
  if (!isTaskEventKind(kind)) return undefined;
  const event = codec<unknown, { container_id: string }>(typeName).decode(envelope.event.value);
  return {
    kind,
    topic: envelope.topic,
    namespace: envelope.namespace,
    timestamp: timestampToDate(envelope.timestamp),
    containerId: event.container_id,
    event,
  } as TaskEvent;
}

export class EventsServer {
  private readonly server: TtrpcServer;
  private address: string | undefined;

  constructor(
    private readonly bus: EventBus,
    private readonly log: Logger = silentLogger,
  ) {
    this.server = new TtrpcServer({ logger: log });
    this.server.register(EVENTS_SERVICE, { Forward: (payload) => this.forward(payload) });
  }

  /** Listens on a unix socket path; pass the same path to shims as TTRPC_ADDRESS. */
  async listen(path: string): Promise<void> {
    await this.server.listen(path);
    this.address = path;
  }

  get listenAddress(): string {
    if (!this.address) throw new Error('events server is not listening');
    return this.address;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  /** See TtrpcServer.removeSocketFile. */
  removeSocketFile(): void {
    this.server.removeSocketFile();
  }

  private forward(payload: Buffer): Buffer {
    const event = decodeForward(payload);
    if (event) {
      this.log.debug('task event', { topic: event.topic, namespace: event.namespace, containerId: event.containerId });
      this.bus.publish(event);
    } else {
      this.log.debug('ignoring unknown event type');
    }
    return Buffer.alloc(0); // google.protobuf.Empty
  }
}
