// CDI devices a container asks for, as containerd's WithCDI: the CRI cdi_devices field first, then
// the cdi.k8s.io/* annotations of the container config, each name once. Applied last, so device
// nodes take the container's final user and mounts land on the final mount list.
import type { ContainerConfig__Output } from '../../api/gen/runtime/v1/ContainerConfig';
import type { Spec } from '../../oci/spec';
import { devicesFromAnnotations } from '../cdi/names';
import type { CdiInjector } from './types';

export function requestedCdiDevices(config: Pick<ContainerConfig__Output, 'CDI_devices' | 'annotations'>): string[] {
  const names = [...(config.CDI_devices ?? []).map((d) => d.name), ...devicesFromAnnotations(config.annotations)];
  return [...new Set(names)];
}

/** With CDI off (`cdi` undefined) requests are ignored, as containerd with enable_cdi = false. */
export function applyCdiDevices(spec: Spec, config: Pick<ContainerConfig__Output, 'CDI_devices' | 'annotations'>, cdi: CdiInjector | undefined): void {
  if (cdi === undefined) return;
  cdi.inject(spec, requestedCdiDevices(config));
}
