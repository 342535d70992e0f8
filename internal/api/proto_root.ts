// protobufjs roots for berth's .proto files in api/. Parsing the .proto text costs berthd ~60 ms at
// every start, so `make build` also writes each root as a JSON descriptor beside the compiled module
// (dist/internal/api/descriptors/<name>.json, by hack/proto/descriptors.ts). A descriptor is used only
// when it was made from exactly the .proto files on disk (sha256 over their contents); otherwise,
// and always when running from sources (jest), the files are parsed. Beside each descriptor go the
// sources of its message types' codecs (kept_codecs.ts), which a root loaded from it then uses, and
// the message types each service method needs (method_roots.ts builds just those for the server).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import * as protobuf from 'protobufjs';
import { repoRoot } from '../repo_root';
import { bundledRoots } from './bundled_codecs';
import { openKeptCodecs, useKeptCodecs, writeKeptCodecs, type KeptCodecs, type KeptCodecsIndex } from './kept_codecs';
import { methodTypeClosures, type MethodTypes } from './method_types';

export interface Descriptor {
  /** The .proto files it was made from, relative to api/. */
  files: string[];
  /** sha256 over those files' names and contents. */
  source: string;
  root: protobuf.INamespace;
  /** Where each message type's generated codec sources are in <name>.codecs (kept_codecs.ts). */
  codecs?: KeptCodecsIndex;
  /** "<service full name>/<method>" -> the message types its request and its response need. */
  methods?: Record<string, MethodTypes>;
}

/** The repo's api/ directory (beside dist/ and internal/). */
export function apiDir(): string {
  return join(repoRoot(), 'api');
}

export const DESCRIPTOR_DIR = join(__dirname, 'descriptors');

export const codecsFileOf = (dir: string, name: string) => join(dir, `${name}.codecs`);

/**
 * The kept codecs of the descriptor `name` in `dir`: the ones compiled into berthd's bundle when it
 * holds this very descriptor's (bundled_codecs.ts), else its .codecs file.
 */
export function keptCodecsOf(dir: string, name: string, descriptor: Descriptor): KeptCodecs | undefined {
  const bundled = bundledRoots[name];
  return openKeptCodecs(codecsFileOf(dir, name), descriptor.codecs, bundled?.source === descriptor.source ? bundled : undefined);
}

/** Parses `files` (relative to api/) and their imports; google/protobuf/* come from protobufjs. */
function parseProtos(files: readonly string[]): { root: protobuf.Root; loaded: string[] } {
  const base = apiDir();
  const root = new protobuf.Root();
  const loaded: string[] = [];
  root.resolvePath = (_origin, target) => {
    const path = isAbsolute(target) ? target : join(base, target);
    loaded.push(path);
    return path;
  };
  root.loadSync(files.map((f) => join(base, f)), { keepCase: true });
  root.resolveAll();
  return { root, loaded };
}

function sourceHash(paths: readonly string[]): string {
  const hash = createHash('sha256');
  for (const path of [...new Set(paths)].sort()) {
    hash.update(path.slice(apiDir().length)).update('\0');
    if (existsSync(path)) hash.update(readFileSync(path));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function readDescriptor(path: string): Descriptor | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Descriptor;
  } catch {
    return undefined; // none written (running from sources) or unreadable: parse instead
  }
}

/**
 * The descriptor named `name` when it was made from exactly the `files` on disk, or, in berthd's
 * bundle, when it is the one the bundle was built with (bundled_codecs.ts): that one matches the
 * bundle's code even if the .proto files were edited since, and hashing them was ~1-2 ms a root at
 * every start.
 */
export function currentDescriptor(name: string, files: readonly string[], dir: string): Descriptor | undefined {
  const descriptor = readDescriptor(join(dir, `${name}.json`));
  if (descriptor === undefined || !files.every((f) => descriptor.files.includes(f))) return undefined;
  if (bundledRoots[name]?.source === descriptor.source) return descriptor;
  return descriptor.source === sourceHash(descriptor.files.map((f) => join(apiDir(), f))) ? descriptor : undefined;
}

/** The root named `name` for `files`: from its up-to-date JSON descriptor, else parsed. */
export function loadProtoRoot(name: string, files: readonly string[], dir = DESCRIPTOR_DIR): protobuf.Root {
  const descriptor = currentDescriptor(name, files, dir);
  if (descriptor) {
    const root = protobuf.Root.fromJSON(descriptor.root);
    root.resolveAll();
    useKeptCodecs(root, keptCodecsOf(dir, name, descriptor));
    return root;
  }
  return parseProtos(files).root;
}

/** Writes the descriptor `loadProtoRoot(name, files)` will use, and its kept codec sources (build time). */
export function writeProtoDescriptor(name: string, files: readonly string[], outDir = DESCRIPTOR_DIR): string {
  const { root, loaded } = parseProtos(files);
  const base = apiDir();
  const inApi = loaded.filter((p) => p.startsWith(`${base}/`));
  const descriptor: Descriptor = { files: [...new Set(inApi)].map((p) => p.slice(base.length + 1)).sort(), source: sourceHash(inApi), root: root.toJSON({ keepComments: false }) };
  mkdirSync(outDir, { recursive: true });
  // Generated from the root as loadProtoRoot makes it from this descriptor.
  const loadedRoot = protobuf.Root.fromJSON(descriptor.root);
  loadedRoot.resolveAll();
  descriptor.codecs = writeKeptCodecs(loadedRoot, codecsFileOf(outDir, name));
  descriptor.methods = methodTypeClosures(loadedRoot);
  const out = join(outDir, `${name}.json`);
  writeFileSync(out, JSON.stringify(descriptor));
  return out;
}
