// The calls of the kubelet-polling loop (kubelet_poll.ts) over one of two connections: the peer's
// long-lived client, as a kubelet keeps one, or a fresh connection for every call the way crictl 1.26
// makes it (Version first, the socket path as :authority, so berthd's header rewrite runs). Issue 16
// asks for the polling CPU both ways.
import type { ContainerStatusRequest } from '../../internal/api/gen/runtime/v1/ContainerStatusRequest';
import type { ListContainersRequest } from '../../internal/api/gen/runtime/v1/ListContainersRequest';
import type { ListContainersResponse__Output } from '../../internal/api/gen/runtime/v1/ListContainersResponse';
import type { ListPodSandboxRequest } from '../../internal/api/gen/runtime/v1/ListPodSandboxRequest';
import type { ListPodSandboxResponse__Output } from '../../internal/api/gen/runtime/v1/ListPodSandboxResponse';
import type { PodSandboxStatusRequest } from '../../internal/api/gen/runtime/v1/PodSandboxStatusRequest';
import { goStyleCall, goStyleImageCall } from '../harness/go_style_client';
import type { Peer } from './peers/peer';

export type PollConnection = 'long-lived' | 'per-call';
export const POLL_CONNECTIONS: readonly PollConnection[] = ['long-lived', 'per-call'];

export interface PollCalls {
  listPodSandbox(req: ListPodSandboxRequest): Promise<ListPodSandboxResponse__Output>;
  listContainers(req: ListContainersRequest): Promise<ListContainersResponse__Output>;
  podSandboxStatus(req: PodSandboxStatusRequest): Promise<unknown>;
  containerStatus(req: ContainerStatusRequest): Promise<unknown>;
  listContainerStats(): Promise<unknown>;
  listPodSandboxStats(): Promise<unknown>;
  imageFsInfo(): Promise<unknown>;
}

const RPC_DEADLINE_MS = 60_000;
const opts = () => ({ deadline: Date.now() + RPC_DEADLINE_MS });

/** The peer's client at call time (a restart replaces it). */
function longLived(peer: Peer): PollCalls {
  return {
    listPodSandbox: (req) => peer.cri.runtime.ListPodSandbox(req, opts()),
    listContainers: (req) => peer.cri.runtime.ListContainers(req, opts()),
    podSandboxStatus: (req) => peer.cri.runtime.PodSandboxStatus(req, opts()),
    containerStatus: (req) => peer.cri.runtime.ContainerStatus(req, opts()),
    listContainerStats: () => peer.cri.runtime.ListContainerStats({}, opts()),
    listPodSandboxStats: () => peer.cri.runtime.ListPodSandboxStats({}, opts()),
    imageFsInfo: () => peer.cri.image.ImageFsInfo({}, opts()),
  };
}

function perCall(socket: string): PollCalls {
  const call = <Res>(method: Parameters<typeof goStyleCall>[1], req: unknown) => goStyleCall<Res>(socket, method, req, socket, RPC_DEADLINE_MS);
  return {
    listPodSandbox: (req) => call<ListPodSandboxResponse__Output>('ListPodSandbox', req),
    listContainers: (req) => call<ListContainersResponse__Output>('ListContainers', req),
    podSandboxStatus: (req) => call('PodSandboxStatus', req),
    containerStatus: (req) => call('ContainerStatus', req),
    listContainerStats: () => call('ListContainerStats', {}),
    listPodSandboxStats: () => call('ListPodSandboxStats', {}),
    imageFsInfo: () => goStyleImageCall(socket, 'ImageFsInfo', {}, socket, RPC_DEADLINE_MS),
  };
}

export function pollCalls(peer: Peer, connection: PollConnection): PollCalls {
  return connection === 'long-lived' ? longLived(peer) : perCall(peer.socket);
}
