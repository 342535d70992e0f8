// protobufjs roots for berth's .proto files in api/. Parsing the .proto text costs berthd ~60 ms at
// every start, so `make build` also writes each root as a JSON descriptor beside the compiled module
// (dist/internal/api/descriptors/<name>.json, by hack/proto/descriptors.ts). A descriptor is used only
// when it was made from exactly the .proto files on disk (sha256 over their contents); otherwise,
// and always when running from sources (jest), the files are parsed. Beside each descriptor go the
// sources of its message types' codecs (kept_codecs.ts), which a root loaded from it then uses.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import * as protobuf from 'protobufjs';
import { repoRoot } from '../repo_root';
import { useKeptCodecs, writeKeptCodecs, type KeptCodecsIndex } from './kept_codecs';

interface Descriptor {
  /** The .proto files it was made from, relative to api/. */
  files: string[];
  /** sha256 over those files' names and contents. */
  source: string;
  root: protobuf.INamespace;
  /** Where each message type's generated codec sources are in <name>.codecs (kept_codecs.ts). */
  codecs?: KeptCodecsIndex;
}

/** The repo's api/ directory (beside dist/ and internal/). */
export function apiDir(): string {
  return join(repoRoot(), 'api');
}

const DESCRIPTOR_DIR = join(__dirname, 'descriptors');

const codecsFileOf = (dir: string, name: string) => join(dir, `${name}.codecs`);

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

/** The descriptor named `name` when it was made from exactly the `files` on disk. */
function currentDescriptor(name: string, files: readonly string[], dir: string): Descriptor | undefined {
  const descriptor = readDescriptor(join(dir, `${name}.json`));
  const current =
    descriptor !== undefined &&
    files.every((f) => descriptor.files.includes(f)) &&
    descriptor.source === sourceHash(descriptor.files.map((f) => join(apiDir(), f)));
  return current ? descriptor : undefined;
}

/** The root named `name` for `files`: from its up-to-date JSON descriptor, else parsed. */
export function loadProtoRoot(name: string, files: readonly string[], dir = DESCRIPTOR_DIR): protobuf.Root {
  const descriptor = currentDescriptor(name, files, dir);
  if (descriptor) {
    const root = protobuf.Root.fromJSON(descriptor.root);
    root.resolveAll();
    useKeptCodecs(root, codecsFileOf(dir, name), descriptor.codecs);
    return root;
  }
  return parseProtos(files).root;
}

export interface MethodShape {
  name: string;
  requestStream: boolean;
  responseStream: boolean;
}

/**
 * The methods of each of `services` (full names) in the root `name`, read straight from its
 * descriptor (read once for all of them): building the root (protobufjs reflection for every
 * message) costs ~10 ms per API package, which services nobody has called yet need not pay at
 * start. Parsed as loadProtoRoot does otherwise.
 */
export function serviceMethods(name: string, files: readonly string[], services: readonly string[], dir = DESCRIPTOR_DIR): MethodShape[][] {
  const descriptor = currentDescriptor(name, files, dir);
  const shape = (method: string, m: { requestStream?: boolean; responseStream?: boolean }): MethodShape => ({
    name: method,
    requestStream: m.requestStream === true,
    responseStream: m.responseStream === true,
  });
  let parsed: protobuf.Root | undefined;
  return services.map((service) => {
    let node: protobuf.AnyNestedObject | undefined = descriptor?.root;
    for (const part of service.split('.')) node = node && 'nested' in node ? node.nested?.[part] : undefined;
    if (node && 'methods' in node) return Object.entries(node.methods as Record<string, protobuf.IMethod>).map(([method, m]) => shape(method, m));
    parsed ??= loadProtoRoot(name, files, dir);
    return parsed.lookupService(service).methodsArray.map((m) => shape(m.name, m));
  });
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
  const out = join(outDir, `${name}.json`);
  writeFileSync(out, JSON.stringify(descriptor));
  return out;
}
