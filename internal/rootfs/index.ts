export { applyLayers, removeStaleExtracts, type ApplyLayersOptions } from './apply';
export { chainIDs } from './chain';
export type { Layer } from './types';
export { isUnpackKey } from './extract';
