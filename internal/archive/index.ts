export { applyLayer, type ApplyOptions, type ApplyResult } from './apply';
export { applyLayerOffThread } from './apply_thread';
export { detectCompression, decompressed, type Compression } from './decompress';
export { OVERLAY_OPAQUE_XATTR, WHITEOUT_OPAQUE, WHITEOUT_PREFIX, type WhiteoutMode } from './entries';
export { cleanEntryName } from './paths';
export { openDirBeneath as openLayerDirBeneath, shown } from './byte_names';
export { LayerTree } from './layer_tree';
