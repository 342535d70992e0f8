// The JSON descriptors `make build` writes must describe exactly what parsing the .proto files gives,
// and a descriptor made from other .proto contents must never be used.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTAINERD_PROTO_FILES } from '../../../internal/api/containerd';
import { CRI_PROTO_FILES, CRI_V1ALPHA2_PROTO_FILES } from '../../../internal/api/cri';
import { loadProtoRoot, serviceMethods, writeProtoDescriptor } from '../../../internal/api/proto_root';
import * as protobuf from 'protobufjs';

describe('proto descriptors', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-desc-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['cri', 'runtime.v1.RuntimeService', CRI_PROTO_FILES],
    ['cri-v1alpha2', 'runtime.v1alpha2.RuntimeService', CRI_V1ALPHA2_PROTO_FILES],
    ['containerd', 'containerd.task.v2.Task', CONTAINERD_PROTO_FILES],
  ])('%s: the descriptor round-trips to the parsed root, %s included', (name, service, files) => {
    const out = writeProtoDescriptor(name, files, dir);
    const written = JSON.parse(readFileSync(out, 'utf8')) as { files: string[]; source: string; root: protobuf.INamespace };
    expect(written.files.length).toBeGreaterThanOrEqual(files.length);
    expect(written.source).toMatch(/^[0-9a-f]{64}$/);
    const fromJson = protobuf.Root.fromJSON(written.root);
    fromJson.resolveAll();
    expect(Object.keys(fromJson.lookupService(service).methods).length).toBeGreaterThan(5);
    expect(JSON.stringify(fromJson.toJSON())).toBe(JSON.stringify(written.root));
  });

  it('uses a descriptor only while it matches the .proto files', () => {
    const out = writeProtoDescriptor('cri', CRI_PROTO_FILES, dir);
    const written = JSON.parse(readFileSync(out, 'utf8')) as { source: string; root: { nested: Record<string, { nested: Record<string, unknown> }> } };
    // Mark the descriptor: drop the Admin service, so using it is visible.
    delete written.root.nested.berth!.nested.admin;
    writeFileSync(out, JSON.stringify(written));
    expect(loadProtoRoot('cri', CRI_PROTO_FILES, dir).lookup('berth.admin.v1.Admin')).toBeNull();
    // Made from other .proto contents: parsed again, Admin is back.
    writeFileSync(out, JSON.stringify({ ...written, source: '0'.repeat(64) }));
    expect(loadProtoRoot('cri', CRI_PROTO_FILES, dir).lookupService('berth.admin.v1.Admin').name).toBe('Admin');
    // No descriptor at all: parsed.
    rmSync(out);
    expect(loadProtoRoot('cri', CRI_PROTO_FILES, dir).lookupService('berth.admin.v1.Admin').name).toBe('Admin');
  });

  it.each(['runtime.v1alpha2.RuntimeService', 'runtime.v1alpha2.ImageService'])(
    'reads the methods of %s from the descriptor as the parsed root has them, and parses without one',
    (service) => {
      const parsed = loadProtoRoot('cri-v1alpha2', CRI_V1ALPHA2_PROTO_FILES, dir).lookupService(service); // no descriptor yet: parsed
      const expected = parsed.methodsArray.map((m) => ({ name: m.name, requestStream: m.requestStream === true, responseStream: m.responseStream === true }));
      expect(expected.length).toBeGreaterThanOrEqual(5);
      expect(serviceMethods('cri-v1alpha2', CRI_V1ALPHA2_PROTO_FILES, [service], dir)).toEqual([expected]);
      const out = writeProtoDescriptor('cri-v1alpha2', CRI_V1ALPHA2_PROTO_FILES, dir);
      const written = JSON.parse(readFileSync(out, 'utf8')) as { root: { nested: Record<string, { nested: Record<string, { nested: Record<string, { methods: Record<string, unknown> }> }> }> } };
      const [, , name] = service.split('.');
      // Mark the descriptor: one method fewer, so reading it (and not parsing) is visible.
      delete written.root.nested.runtime!.nested.v1alpha2!.nested[name!]!.methods[expected[0]!.name];
      writeFileSync(out, JSON.stringify(written));
      expect(serviceMethods('cri-v1alpha2', CRI_V1ALPHA2_PROTO_FILES, [service], dir)).toEqual([expected.slice(1)]);
    },
  );
});
