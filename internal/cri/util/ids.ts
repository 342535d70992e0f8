// IDs and names as containerd's CRI makes them.
import { randomBytes } from 'node:crypto';
import type { ContainerMetadata__Output } from '../../api/gen/runtime/v1/ContainerMetadata';
import type { PodSandboxMetadata__Output } from '../../api/gen/runtime/v1/PodSandboxMetadata';

/** The length of every sandbox and container ID berth makes. */
export const ID_LENGTH = 64;

/** 64 hex characters, like containerd's util.GenerateID. */
export function generateId(): string {
  return randomBytes(ID_LENGTH / 2).toString('hex');
}

/** `<name>_<namespace>_<uid>_<attempt>`: unique per pod incarnation (kubelet retries bump attempt). */
export function makeSandboxName(m: PodSandboxMetadata__Output): string {
  return [m.name, m.namespace, m.uid, String(m.attempt)].join('_');
}

/** `<container>_<pod>_<namespace>_<uid>_<attempt>`. */
export function makeContainerName(c: ContainerMetadata__Output, s: PodSandboxMetadata__Output): string {
  return [c.name, s.name, s.namespace, s.uid, String(c.attempt)].join('_');
}
