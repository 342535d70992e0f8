// GetContainerEvents: a server stream of container lifecycle events (kubelet's evented PLEG). Each
// event carries, like containerd's, the pod's status and the statuses of the pod's containers as
// they are when the event is sent. The stream lasts until the client cancels it; a client too slow
// to keep up is dropped by the broadcaster and its stream ends (kubelet then reconnects). When
// berthd stops, the stream ends at once with UNAVAILABLE (as containerd's closed connection reads
// to a grpc-go client), not after the stop's grace period for calls in flight.
import type * as grpc from '@grpc/grpc-js';
import { StoppingError } from '../../errdefs/errors';
import type { ContainerEventResponse } from '../../api/gen/runtime/v1/ContainerEventResponse';
import type { GetEventsRequest__Output } from '../../api/gen/runtime/v1/GetEventsRequest';
import type { CriEvent } from '../events/broadcaster';
import { imageDisplay, toCriContainerStatus } from './container_status';
import { toCriSandboxStatus } from './sandbox_status';
import type { CriService } from './service';

export async function eventResponse(svc: CriService, event: CriEvent): Promise<ContainerEventResponse> {
  const rt = svc.rt;
  const sandbox = rt.sandboxes.tryGet(event.sandboxId);
  const containers = rt.containers.listBySandbox(event.sandboxId);
  return {
    container_id: event.containerId,
    container_event_type: event.type,
    created_at: event.createdAt,
    pod_sandbox_status: sandbox ? toCriSandboxStatus(sandbox) : null,
    containers_statuses: await Promise.all(containers.map(async (c) => toCriContainerStatus(c, await imageDisplay(svc, c)))),
  };
}

/** Waits for 'drain' (or the end of the stream), leaving no listener behind either way. */
function writable(stream: grpc.ServerWritableStream<GetEventsRequest__Output, ContainerEventResponse>): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      for (const e of ['drain', 'cancelled', 'close', 'error'] as const) stream.removeListener(e, done);
      resolve();
    };
    for (const e of ['drain', 'cancelled', 'close', 'error'] as const) stream.once(e, done);
  });
}

export async function getContainerEvents(
  svc: CriService,
  _req: GetEventsRequest__Output,
  stream: grpc.ServerWritableStream<GetEventsRequest__Output, ContainerEventResponse>,
): Promise<void> {
  const subscription = svc.rt.events.subscribe();
  const stop = () => subscription.close();
  stream.once('cancelled', stop);
  stream.once('close', stop);
  stream.once('error', stop);
  try {
    for (let event = await subscription.next(); event !== undefined; event = await subscription.next()) {
      if (stream.cancelled) break;
      const ok = stream.write(await eventResponse(svc, event));
      if (!ok) await writable(stream);
    }
    if (subscription.shutDown && !stream.cancelled) throw new StoppingError('berthd is stopping; reconnect to get events from its next start');
  } finally {
    stop();
  }
}
