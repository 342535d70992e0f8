export type { Mount } from './types';
export { mountAll, mountOne, unmount, unmountAll } from './mount';
export { cleanupTempMounts, withTempMount, type TempMountOptions } from './temp';
export { parseMountOptions, type ParsedOptions } from './options';
