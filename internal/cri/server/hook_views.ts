// What the hook points (internal/nri) see of sandboxes and containers.
import type { HookContainer, HookSandbox } from '../../nri/hooks';
import type { Container } from '../store/container';
import type { Sandbox } from '../store/sandbox';

export function hookSandbox(s: Sandbox): HookSandbox {
  const m = s.metadata.config.metadata;
  return {
    id: s.id,
    name: m?.name ?? '',
    namespace: m?.namespace ?? '',
    labels: s.metadata.config.labels,
    annotations: s.metadata.config.annotations,
  };
}

export function hookContainer(c: Container): HookContainer {
  return {
    id: c.id,
    name: c.metadata.config.metadata?.name ?? '',
    sandboxId: c.metadata.sandboxId,
    labels: c.metadata.config.labels,
    annotations: c.metadata.config.annotations,
  };
}
