// The JSON descriptors `make build` writes must describe exactly what parsing the .proto files gives,
// and a descriptor made from other .proto contents must never be used.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONTAINERD_PROTO_FILES } from '../../../internal/api/containerd';
import { CRI_PROTO_FILES, CRI_V1ALPHA2_PROTO_FILES } from '../../../internal/api/cri';
import { CONVERSION_OPTIONS } from '../../../internal/api/grpc_definition';
import { MethodRoots } from '../../../internal/api/method_roots';
import { loadProtoRoot, writeProtoDescriptor } from '../../../internal/api/proto_root';
import { sample } from './sample_message';
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

  it("in berthd's bundle, uses the descriptor it was built with even when the .proto files changed since", () => {
    const out = writeProtoDescriptor('cri', CRI_PROTO_FILES, dir);
    const written = JSON.parse(readFileSync(out, 'utf8')) as { source: string; root: { nested: Record<string, { nested: Record<string, unknown> }> } };
    delete written.root.nested.berth!.nested.admin; // the mark, as above
    const built = '1'.repeat(64); // the .proto files hash otherwise now
    writeFileSync(out, JSON.stringify({ ...written, source: built }));
    const adminIn = (bundledSource: string) => {
      let found: unknown;
      jest.isolateModules(() => {
        jest.doMock('../../../internal/api/bundled_codecs', () => ({ bundledRoots: { cri: { source: bundledSource, protobufjs: '0.0.1', types: {} } } }));
        const { loadProtoRoot: load } = jest.requireActual<typeof import('../../../internal/api/proto_root')>('../../../internal/api/proto_root');
        found = load('cri', CRI_PROTO_FILES, dir).lookup('berth.admin.v1.Admin');
      });
      jest.dontMock('../../../internal/api/bundled_codecs');
      return found !== null;
    };
    expect(adminIn(built)).toBe(false); // the bundle's own descriptor: used
    expect(adminIn('2'.repeat(64))).toBe(true); // another build's: the .proto files decide, and parse
  });

  it('gives no per-method types without a current descriptor (the server then builds whole roots)', () => {
    expect(MethodRoots.open('cri', CRI_PROTO_FILES, dir)).toBeUndefined(); // none written
    const out = writeProtoDescriptor('cri', CRI_PROTO_FILES, dir);
    expect(MethodRoots.open('cri', CRI_PROTO_FILES, dir)).toBeDefined();
    const written = JSON.parse(readFileSync(out, 'utf8')) as { source: string };
    writeFileSync(out, JSON.stringify({ ...written, source: '0'.repeat(64) }));
    expect(MethodRoots.open('cri', CRI_PROTO_FILES, dir)).toBeUndefined();
  });

  it('builds a method\'s types alone: the request of ListContainers has no pod types', () => {
    writeProtoDescriptor('cri', CRI_PROTO_FILES, dir);
    const roots = MethodRoots.open('cri', CRI_PROTO_FILES, dir)!;
    const request = roots.messageType('runtime.v1.RuntimeService', 'ListContainers', 'request');
    expect(request.fullName).toBe('.runtime.v1.ListContainersRequest');
    expect(request.root.lookup('.runtime.v1.ContainerFilter')).not.toBeNull();
    expect(request.root.lookup('.runtime.v1.ListContainersResponse')).toBeNull();
    expect(request.root.lookup('.runtime.v1.PodSandboxConfig')).toBeNull();
    expect(roots.messageType('runtime.v1.RuntimeService', 'ListContainers', 'request')).toBe(request); // built once
    expect(() => roots.messageType('runtime.v1.RuntimeService', 'NoSuchMethod', 'request')).toThrow(/has no NoSuchMethod/);
  });

  it.each([
    ['cri', CRI_PROTO_FILES],
    ['cri-v1alpha2', CRI_V1ALPHA2_PROTO_FILES],
  ] as const)('%s: every method\'s own types are the whole root\'s, byte for byte and as objects', (name, files) => {
    const whole = loadProtoRoot(name, files, dir); // no descriptor yet: parsed
    writeProtoDescriptor(name, files, dir);
    const roots = MethodRoots.open(name, files, dir)!;
    const services = whole.nestedArray.flatMap(function all(n): protobuf.Service[] {
      if (n instanceof protobuf.Service) return [n];
      return n instanceof protobuf.Namespace ? n.nestedArray.flatMap(all) : [];
    });
    let checked = 0;
    for (const service of services) {
      const serviceName = service.fullName.slice(1);
      expect(roots.methods(serviceName)).toEqual(
        service.methodsArray.map((m) => ({ name: m.name, requestStream: m.requestStream === true, responseStream: m.responseStream === true })),
      );
      for (const method of service.methodsArray) {
        method.resolve();
        for (const [which, wholeType] of [
          ['request', method.resolvedRequestType!],
          ['response', method.resolvedResponseType!],
        ] as const) {
          const own = roots.messageType(serviceName, method.name, which);
          const value = sample(wholeType);
          const bytes = Buffer.from(wholeType.encode(wholeType.fromObject(value)).finish());
          expect({ method: method.name, which, bytes: Buffer.from(own.encode(own.fromObject(value)).finish()) }).toEqual({ method: method.name, which, bytes });
          expect(own.toObject(own.decode(bytes), CONVERSION_OPTIONS)).toEqual(wholeType.toObject(wholeType.decode(bytes), CONVERSION_OPTIONS));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});
