export type { Mount } from './types';
export { mountAll, mountOne, unmount, unmountAll } from './mount';
export { cleanupTempMounts, withTempMount, type TempMountOptions } from './temp';
export { cleanupLegacyTempMounts } from './legacy_temp_mounts';
export { parseMountOptions, type ParsedOptions } from './options';
