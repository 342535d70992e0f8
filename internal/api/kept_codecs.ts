// protobufjs writes each message type's constructor, encode, decode, verify, fromObject and toObject
// as JavaScript source at the type's first use and compiles it (util.codegen): 1-2 ms per type,
// which berthd paid at every start for the types its recovery and first calls use (issue 16).
// `make build` has protobufjs generate every type's sources once and keeps them beside the
// descriptor (<name>.codecs, one JSON line per type, named in it, found through an index in the
// descriptor).
// At run time a type's first use runs setup() as protobufjs does (edition features, wrappers), but
// compiles the kept sources instead of running the generators (most of setup()'s time); sources of
// another protobufjs version are never used. berthd's bundle goes further: it holds the same
// functions as code (bundled_codecs.ts), which V8's code cache keeps compiled, so setup() there
// neither reads nor compiles any source.
import { openSync, readFileSync, readSync } from 'node:fs';
import * as protobuf from 'protobufjs';
import { replaceFileSync } from '../fs/replace_file';
import type { BundledRoot } from './bundled_codecs';

// The protobufjs that runs (bundled with berthd, or from node_modules) is the one that generated.
const protobufjsVersion = (require('protobufjs/package.json') as { version: string }).version;

/** Makes a generated function from its scope's values, in the order of the kept names. */
export type CodecFactory = (...scope: unknown[]) => (...args: unknown[]) => unknown;

/** One generated function: its scope's names and the body that returns it (as util.codegen builds it). */
interface KeptFunction {
  /** Names of the scope util.codegen was finished with (e.g. Writer, types, util). */
  k: string[];
  /**
   * "return (function name(params){...})": parenthesized, so V8 compiles the function with the
   * factory (PIFE) instead of pre-parsing it then parsing it again at its first call.
   */
  s?: string;
  /** The same body as a function, compiled into berthd's bundle (bundled_codecs.ts) instead of `s`. */
  f?: CodecFactory;
}

/** The functions setup() makes for a type. */
type Role = 'ctor' | 'encode' | 'decode' | 'verify' | 'fromObject' | 'toObject';

/** A type's generated functions. */
export type KeptType = Partial<Record<Role, KeptFunction>>;

/** One line of a .codecs file: the type's full name (checked when read) and its functions. */
export interface KeptLine {
  type: string;
  functions: KeptType;
}

/** Which function util.codegen is making, told by its parameters (type.js, encoder.js, decoder.js, verifier.js, converter.js). */
const ROLE_OF_PARAMS: Record<string, Role> = {
  p: 'ctor',
  'm,w,q': 'encode',
  'r,l,z,q,g': 'decode',
  'm,q': 'verify',
  'd,q': 'fromObject',
  'm,o,q': 'toObject',
  '': 'toObject', // converter.js: util.codegen()("return {}") for a type without fields
};

/** What a descriptor says about its kept sources. */
export interface KeptCodecsIndex {
  /** The protobufjs version that generated them; any other version generates its own. */
  protobufjs: string;
  /** Full name (".runtime.v1.VersionRequest") -> [byte offset, byte length] in the .codecs file. */
  types: Record<string, [number, number]>;
}

type Codegen = typeof protobuf.util.codegen;
type Appender = (formatOrScope?: string | Record<string, unknown>, ...params: unknown[]) => unknown;

const utilWithCodegen = protobuf.util as unknown as { codegen: Codegen };

/** Runs `fn` with util.codegen replaced by `replacement`, restoring it however `fn` ends. */
function withCodegen<T>(replacement: Codegen, fn: () => T): T {
  const own = utilWithCodegen.codegen;
  utilWithCodegen.codegen = replacement;
  try {
    return fn();
  } finally {
    utilWithCodegen.codegen = own;
  }
}

/** Every message type under `ns`, nested ones included. */
export function messageTypes(ns: protobuf.NamespaceBase, into: protobuf.Type[] = []): protobuf.Type[] {
  for (const nested of ns.nestedArray) {
    if (nested instanceof protobuf.Type) into.push(nested);
    if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type) messageTypes(nested, into);
  }
  return into;
}

/** Runs protobufjs's setup() of `type` and returns the sources it generated. */
function generatedSources(type: protobuf.Type): KeptType {
  const kept: KeptType = {};
  const own = utilWithCodegen.codegen;
  const recording = ((params: string[] | string | undefined, name?: string) => {
    const real = own(params as string[], name) as unknown as Appender & { toString(): string };
    const paramList = Array.isArray(params) ? params.join(',') : '';
    const role = ROLE_OF_PARAMS[paramList];
    if (role === undefined) throw new Error(`${type.fullName}: util.codegen makes an unknown function (${paramList})`);
    const appender: Appender = (formatOrScope, ...rest) => {
      if (typeof formatOrScope === 'string') {
        real(formatOrScope, ...rest);
        return appender;
      }
      if (role in kept) throw new Error(`${type.fullName}: util.codegen made a second ${role}`);
      kept[role] = { k: Object.keys(formatOrScope ?? {}), s: `return (${real.toString()})` };
      return real(formatOrScope);
    };
    return appender;
  }) as unknown as Codegen;
  withCodegen(recording, () => {
    type.setup();
    void type.ctor; // made in setup() already unless something asked for it before
  });
  return kept;
}

/**
 * Generates every message type of `root` (a root fresh from its descriptor, as berthd loads it)
 * into `file`; returns the index to keep in the descriptor.
 */
export function writeKeptCodecs(root: protobuf.Root, file: string): KeptCodecsIndex {
  const types: KeptCodecsIndex['types'] = {};
  const lines: Buffer[] = [];
  let offset = 0;
  for (const type of messageTypes(root)) {
    const kept: KeptLine = { type: type.fullName, functions: generatedSources(type) };
    const line = Buffer.from(`${JSON.stringify(kept)}\n`);
    types[type.fullName] = [offset, line.length - 1];
    lines.push(line);
    offset += line.length;
  }
  // A new file, not the old one rewritten: a berthd reading the old one through its open fd keeps it.
  replaceFileSync(file, Buffer.concat(lines));
  return { protobufjs: protobufjsVersion, types };
}

/** Every line of a .codecs file: each type's full name and its functions' sources (build time). */
export function keptLines(file: string): KeptLine[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as KeptLine);
}

/** The kept functions of `type` at `at` in the open .codecs file; throws unless that line is the type's. */
function readKept(fd: number | undefined, type: protobuf.Type, [offset, length]: [number, number]): KeptType {
  if (fd === undefined) throw new Error(`${type.fullName}: not bundled, and no .codecs file open`);
  const bytes = Buffer.alloc(length);
  if (readSync(fd, bytes, 0, length, offset) !== length) throw new Error(`short read of ${length} bytes at ${offset}`);
  const line = JSON.parse(bytes.toString('utf8')) as KeptLine;
  if (line.type !== type.fullName) throw new Error(`${type.fullName}: the kept line at ${offset} is ${String(line.type)}'s`);
  return line.functions;
}

/** What setup() reads of protobufjs's internals (the same names in type.js and namespace.js). */
interface SetupInternals {
  _ctor?: unknown;
  _edition?: string;
  root: { _needsRecursiveFeatureResolution?: boolean; _edition?: string; _resolveFeaturesRecursive(edition: string): void } | null;
}

/** The roles setup() assigns besides the constructor, each compiled on its first call. */
const LAZY_ROLES = ['encode', 'decode', 'verify', 'fromObject', 'toObject'] as const;

/**
 * protobufjs's Type#setup() (8.x, type.js), with each generated function compiled from its kept
 * source instead of being generated: no generator runs at all. The constructor is compiled here;
 * encode, decode, verify, fromObject and toObject on their first call (a type is mostly only sent or
 * only received, and verify is not called at all: each compile is ~40 us of parsing berthd's
 * recovery and first calls paid for functions nobody called, issue 16). Throws when a kept function
 * is missing or wants a scope this setup() does not give: checked here, before anything is replaced.
 */
function setupFromKept(type: protobuf.Type, kept: KeptType): protobuf.Type {
  const internals = type as unknown as SetupInternals;
  const root = internals.root;
  if (root?._needsRecursiveFeatureResolution) {
    const edition = root._edition || internals._edition;
    if (edition) root._resolveFeaturesRecursive(edition);
  }
  const types = type.fieldsArray.map((field) => field.resolve().resolvedType);
  const util = protobuf.util;
  // Each role's scope, as setup() gives it. `ctor` is read only where the scope has it, and only
  // when compiling: type.ctor read before the kept one is set would have protobufjs generate one.
  const scopes: Record<Role, (ctor: () => unknown) => Record<string, unknown>> = {
    ctor: () => ({}),
    encode: () => ({ Writer: protobuf.Writer, types, util }),
    decode: (ctor) => ({ Reader: protobuf.Reader, types, util, C: ctor() }),
    verify: () => ({ types, util }),
    fromObject: (ctor) => ({ types, util, C: ctor() }),
    toObject: () => ({ types, util }),
  };
  for (const role of ['ctor', ...LAZY_ROLES] as const) {
    const fn = kept[role];
    if (fn === undefined) {
      if (role === 'ctor' && internals._ctor) continue;
      throw new Error(`${type.fullName}: no kept ${role}`);
    }
    const names = scopes[role](() => undefined);
    const missing = fn.k.find((key) => !(key in names));
    if (missing !== undefined) throw new Error(`${type.fullName}: the kept ${role} wants ${missing}`);
    if (fn.f === undefined && fn.s === undefined) throw new Error(`${type.fullName}: the kept ${role} has no source`);
  }
  const compile = (role: Role): ((...args: unknown[]) => unknown) => {
    const fn = kept[role]!;
    const scope = scopes[role](() => type.ctor);
    const factory = fn.f ?? (Function(...fn.k, fn.s!) as CodecFactory);
    return factory(...fn.k.map((key) => scope[key])) as never;
  };
  const slots = type as unknown as Record<Role, unknown>;
  if (!internals._ctor) type.ctor = compile('ctor') as never;
  for (const role of LAZY_ROLES) {
    let compiled: ((...args: unknown[]) => unknown) | undefined;
    const firstCall = function (this: unknown, ...args: unknown[]): unknown {
      compiled ??= compile(role);
      if (slots[role] === firstCall) slots[role] = compiled; // not when a wrapper (below) took its place
      return compiled.apply(this, args);
    };
    slots[role] = firstCall;
  }
  const wrapper = protobuf.wrappers[type.fullName];
  if (wrapper) {
    // As setup() does: the wrapper's fromObject/toObject around the generated ones, on a view of the type.
    const view = Object.create(type) as protobuf.Type & SetupInternals;
    view._ctor = type.ctor;
    view.fromObject = type.fromObject;
    type.fromObject = wrapper.fromObject!.bind(view) as never;
    view.toObject = type.toObject;
    type.toObject = wrapper.toObject!.bind(view) as never;
  }
  return type;
}

/**
 * A .codecs file, opened, with the index of the descriptor it was written with; or, in berthd's
 * bundle, the same functions compiled in (then no file is read).
 */
export interface KeptCodecs {
  readonly index: KeptCodecsIndex;
  readonly fd?: number;
  /** Full name -> functions, as bundled (bundled_codecs.ts). */
  readonly bundled?: Readonly<Record<string, () => KeptType>>;
}

/**
 * Opens `file` for the roots made from its descriptor; undefined when its sources are not to be used
 * (made by another protobufjs version) or cannot be read. Opened with the descriptor and kept open as
 * long as the process (one per descriptor): a build writing a new file meanwhile cannot pair this
 * index with that file. With `bundled` (this descriptor's functions compiled into the bundle, made
 * by this protobufjs), no file is opened.
 */
export function openKeptCodecs(file: string, index: KeptCodecsIndex | undefined, bundled?: BundledRoot): KeptCodecs | undefined {
  if (index?.protobufjs !== protobufjsVersion) return undefined;
  if (bundled?.protobufjs === protobufjsVersion) return { index, bundled: bundled.types };
  try {
    return { fd: openSync(file, 'r'), index };
  } catch {
    return undefined;
  }
}

/**
 * Makes each type of `root` listed in the index set itself up from the kept sources at first use.
 * Without them (undefined), or for a type whose line at the index's offset is another type's, or
 * that lacks a function setup() asks for, protobufjs generates its own as without an index.
 */
export function useKeptCodecs(root: protobuf.Root, kept: KeptCodecs | undefined): void {
  if (kept === undefined) return;
  const ownSetup = protobuf.Type.prototype.setup;
  for (const type of messageTypes(root)) {
    const at = kept.index.types[type.fullName];
    if (at === undefined) continue;
    const bundled = kept.bundled?.[type.fullName];
    type.setup = function keptSetup(this: protobuf.Type): protobuf.Type {
      try {
        return setupFromKept(this, bundled ? bundled() : readKept(kept.fd, this, at));
      } catch {
        // Unreadable, or not what this setup() asks for: every function is made again below.
        return ownSetup.call(this);
      }
    };
  }
}
