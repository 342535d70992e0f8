// The kept codecs compiled into berthd's bundle (hack/bundle/bundled_codecs.ts): the module generated
// from a descriptor's .codecs file, as esbuild compiles it, sets every message type of that descriptor
// up without protobufjs generating code and without reading the file, and every type then encodes,
// decodes, converts and verifies as protobufjs's own generation.
import { transformSync } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as protobuf from 'protobufjs';
import { bundledCodecsSource } from '../../../hack/bundle/bundled_codecs';
import type { BundledRoot } from '../../../internal/api/bundled_codecs';
import { CONTAINERD_PROTO_FILES } from '../../../internal/api/containerd';
import { messageTypes, openKeptCodecs, useKeptCodecs } from '../../../internal/api/kept_codecs';
import { codecsFileOf, writeProtoDescriptor, type Descriptor } from '../../../internal/api/proto_root';
import { sample } from '../api/sample_message';
import { expectSameAsOwn } from '../api/same_as_own';

/** The generated module as the bundle has it: compiled by esbuild (minified as the bundle is), then run. */
function bundledRootsOf(source: string): Record<string, BundledRoot> {
  const { code } = transformSync(source, { format: 'cjs', minifySyntax: true, minifyWhitespace: true });
  const module = { exports: {} as { bundledRoots?: Record<string, BundledRoot> } };
  (new Function('module', 'exports', code) as (m: typeof module, e: typeof module.exports) => void)(module, module.exports);
  return module.exports.bundledRoots!;
}

describe('kept codecs bundled', () => {
  let dir: string;
  let descriptor: Descriptor;
  let bundled: BundledRoot;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-bundled-codecs-'));
    writeProtoDescriptor('containerd', CONTAINERD_PROTO_FILES, dir);
    descriptor = JSON.parse(readFileSync(join(dir, 'containerd.json'), 'utf8')) as Descriptor;
    bundled = bundledRootsOf(bundledCodecsSource(dir, ['containerd'])).containerd!;
    // Nothing below may read it.
    rmSync(codecsFileOf(dir, 'containerd'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => jest.restoreAllMocks());

  const keptRoot = () => {
    const root = protobuf.Root.fromJSON(descriptor.root);
    root.resolveAll();
    useKeptCodecs(root, openKeptCodecs(codecsFileOf(dir, 'containerd'), descriptor.codecs, bundled));
    return root;
  };

  it("are tied to their descriptor's sources and protobufjs version", () => {
    expect({ source: bundled.source, protobufjs: bundled.protobufjs }).toEqual({ source: descriptor.source, protobufjs: descriptor.codecs!.protobufjs });
    expect(Object.keys(bundled.types).sort()).toEqual(Object.keys(descriptor.codecs!.types).sort());
  });

  it('set every message type up without generating code or reading the .codecs file', () => {
    const root = keptRoot();
    const codegen = jest.spyOn(protobuf.util, 'codegen');
    const types = messageTypes(root);
    expect(types.length).toBeGreaterThan(10);
    for (const type of types) {
      type.setup();
      type.encode(type.fromObject(sample(type))).finish();
    }
    expect(codegen).not.toHaveBeenCalled();
  });

  it('encode, decode, convert and verify every type as protobufjs generating its own', () => {
    const kept = keptRoot();
    expectSameAsOwn(kept, protobuf.Root.fromJSON(descriptor.root));
  });

  it('of another protobufjs version are not used: protobufjs generates its own', () => {
    const root = protobuf.Root.fromJSON(descriptor.root);
    root.resolveAll();
    useKeptCodecs(root, openKeptCodecs(codecsFileOf(dir, 'containerd'), descriptor.codecs, { ...bundled, protobufjs: '0.0.1' }));
    const codegen = jest.spyOn(protobuf.util, 'codegen');
    const type = root.lookupType('containerd.task.v2.StateResponse');
    expect(type.toObject(type.decode(type.encode(type.fromObject({ id: 'c1', pid: 42 })).finish())).id).toBe('c1');
    expect(codegen).toHaveBeenCalled();
  });
});
