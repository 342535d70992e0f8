// Hook points of the container lifecycle, where containerd calls NRI plugins (seed 000: post-create,
// pre-start, post-start, stop, remove). berth ships no plugin runtime: the default is a no-op, and an
// embedder (or a test) passes its own Hooks to adjust the spec before start or to observe events.

export interface HookSandbox {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface HookContainer {
  id: string;
  name: string;
  sandboxId: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface Hooks {
  runPodSandbox?(sandbox: HookSandbox): Promise<void>;
  stopPodSandbox?(sandbox: HookSandbox): Promise<void>;
  removePodSandbox?(sandbox: HookSandbox): Promise<void>;
  postCreateContainer?(sandbox: HookSandbox, container: HookContainer): Promise<void>;
  /** May return a replacement spec (the stored spec is not changed; the bundle gets this one). */
  preStartContainer?(sandbox: HookSandbox, container: HookContainer, spec: unknown): Promise<unknown | void>;
  postStartContainer?(sandbox: HookSandbox, container: HookContainer): Promise<void>;
  stopContainer?(sandbox: HookSandbox, container: HookContainer): Promise<void>;
  removeContainer?(sandbox: HookSandbox, container: HookContainer): Promise<void>;
}

export const noopHooks: Hooks = {};
