// berth.admin.v1 has no upstream to compare with: this pins its wire form. A berthctl from one
// release talks to a berthd from another, so a field's number, type and label, a method's types
// and streaming, never change; new fields and methods are added (and added here), never renumbered.
import { join } from 'node:path';
import * as protobuf from 'protobufjs';
import { berthServices } from '../../../internal/api/cri';

const API = join(__dirname, '../../../api');

function loadAdmin(): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (target.startsWith('/') ? target : join(API, target));
  root.loadSync(join(API, 'berth/admin/v1/admin.proto'), { keepCase: true });
  root.resolveAll();
  return root;
}

const strip = (fullName: string) => fullName.replace(/^\./, '');

function describeType(t: protobuf.Type): string[] {
  return t.fieldsArray.map((f) => {
    const type = f.resolvedType ? strip(f.resolvedType.fullName) : f.type;
    return `${f.repeated ? 'repeated ' : ''}${type} ${f.name} = ${f.id}`;
  });
}

const PINNED_MESSAGES: Record<string, string[]> = {
  ImportImageRequest: ['string path = 1', 'string name = 2'],
  ImportImageResponse: ['repeated berth.admin.v1.ImportedImage images = 1'],
  ImportedImage: ['string name = 1', 'string id = 2'],
  ExportImageRequest: ['string image = 1'],
  ExportImageChunk: ['bytes data = 1'],
  GarbageCollectRequest: [],
  GarbageCollectResponse: ['repeated string removed_blobs = 1', 'repeated string removed_snapshots = 2', 'uint64 reclaimed_bytes = 3'],
  DiskUsageRequest: [],
  DiskUsage: ['uint64 count = 1', 'uint64 bytes = 2'],
  ContainerDiskUsage: ['string id = 1', 'string name = 2', 'string pod_sandbox_id = 3', 'uint64 writable_layer_bytes = 4', 'uint64 log_bytes = 5'],
  DiskUsageResponse: [
    'berth.admin.v1.DiskUsage images = 1',
    'berth.admin.v1.DiskUsage snapshots = 2',
    'berth.admin.v1.DiskUsage writable_layers = 3',
    'berth.admin.v1.DiskUsage logs = 4',
    'repeated berth.admin.v1.ContainerDiskUsage containers = 5',
  ],
  ListIngestsRequest: [],
  Ingest: ['string ref = 1', 'uint64 offset = 2'],
  ListIngestsResponse: ['repeated berth.admin.v1.Ingest ingests = 1'],
};

const PINNED_METHODS = [
  'ImportImage(ImportImageRequest) returns (ImportImageResponse)',
  'ExportImage(ExportImageRequest) returns (stream ExportImageChunk)',
  'GarbageCollect(GarbageCollectRequest) returns (GarbageCollectResponse)',
  'DiskUsage(DiskUsageRequest) returns (DiskUsageResponse)',
  'ListIngests(ListIngestsRequest) returns (ListIngestsResponse)',
];

describe('berth.admin.v1 wire form', () => {
  const root = loadAdmin();
  const pkg = root.lookup('berth.admin.v1') as protobuf.Namespace;

  it.each(Object.entries(PINNED_MESSAGES))('message %s keeps its fields', (name, fields) => {
    expect(describeType(root.lookupType(`berth.admin.v1.${name}`))).toEqual(fields);
  });

  it('has no message the test does not pin', () => {
    const messages = pkg.nestedArray.filter((n) => n instanceof protobuf.Type).map((n) => n.name);
    expect(messages.sort()).toEqual(Object.keys(PINNED_MESSAGES).sort());
  });

  it('serves exactly the pinned methods of berth.admin.v1.Admin', () => {
    const service = root.lookupService('berth.admin.v1.Admin');
    const methods = service.methodsArray.map(
      (m) => `${m.name}(${m.requestStream ? 'stream ' : ''}${m.requestType}) returns (${m.responseStream ? 'stream ' : ''}${m.responseType})`,
    );
    expect(methods).toEqual(PINNED_METHODS);
  });

  it('is what berthd serves: gRPC paths and streaming as pinned', () => {
    const definition = berthServices().admin.service as unknown as Record<string, { path: string; responseStream: boolean; requestStream: boolean }>;
    expect(Object.fromEntries(Object.entries(definition).map(([name, d]) => [name, [d.path, d.requestStream, d.responseStream]]))).toEqual({
      ImportImage: ['/berth.admin.v1.Admin/ImportImage', false, false],
      ExportImage: ['/berth.admin.v1.Admin/ExportImage', false, true],
      GarbageCollect: ['/berth.admin.v1.Admin/GarbageCollect', false, false],
      DiskUsage: ['/berth.admin.v1.Admin/DiskUsage', false, false],
      ListIngests: ['/berth.admin.v1.Admin/ListIngests', false, false],
    });
  });

  it('encodes a pinned message to the same bytes', () => {
    // Field 1 (string "ab"), field 2 (uint64 300): tags 0x0a and 0x10, 300 as varint ac 02.
    const ingest = root.lookupType('berth.admin.v1.Ingest');
    expect(Buffer.from(ingest.encode(ingest.fromObject({ ref: 'ab', offset: 300 })).finish()).toString('hex')).toBe('0a02616210ac02');
  });
});
