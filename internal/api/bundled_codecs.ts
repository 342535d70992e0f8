// The kept codec functions (kept_codecs.ts) compiled into berthd's bundle: hack/bundle replaces this
// module there with one generated from the descriptors it writes beside the bundle. As code in the
// bundle, V8's code cache (the warm one a serving berthd writes) holds them compiled, and a type's
// setup() neither reads nor compiles their sources: that was ~100 compiles, 7-10 ms, of every
// restart with 20 pods and its first calls (issue 16). Outside the bundle (dist/, jest) there are none.
import type { KeptType } from './kept_codecs';

/** One descriptor's message types, as bundled. */
export interface BundledRoot {
  /** The descriptor's `source` (its .proto files' hash): used only with that very descriptor. */
  source: string;
  /** The protobufjs version that generated them. */
  protobufjs: string;
  /** Full name -> the type's functions (made when asked: most types are never used). */
  types: Readonly<Record<string, () => KeptType>>;
}

/** Root name (as the descriptors are named) -> its bundled codecs. */
export const bundledRoots: Readonly<Record<string, BundledRoot>> = {};
