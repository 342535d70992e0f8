// The JSON descriptors `make build` writes must describe exactly what parsing the .proto files gives,
// and a descriptor made from other .proto contents must never be used.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTAINERD_PROTO_FILES } from '../../../internal/api/containerd';
import { CRI_PROTO_FILES } from '../../../internal/api/cri';
import { loadProtoRoot, writeProtoDescriptor } from '../../../internal/api/proto_root';
import * as protobuf from 'protobufjs';

describe('proto descriptors', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-desc-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['cri', 'runtime.v1.RuntimeService', CRI_PROTO_FILES],
    ['cri', 'runtime.v1alpha2.RuntimeService', CRI_PROTO_FILES],
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
});
