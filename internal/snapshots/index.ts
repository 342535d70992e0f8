export type { DiffRebaser, Info, Kind, SnapshotOptions, Snapshotter, Usage } from './types';
export { canRebase } from './types';
export { parseFilters } from './filters';
export { OverlaySnapshotter, type OverlayOptions } from './overlay/overlay';
