// The codec sources `make build` keeps beside each descriptor (internal/api/kept_codecs.ts): a root
// loaded from its descriptor sets every message type up from them without generating code, and
// every type then encodes, decodes, converts and verifies exactly as protobufjs's own generation.
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as protobuf from 'protobufjs';
import { CONTAINERD_PROTO_FILES } from '../../../internal/api/containerd';
import { CRI_PROTO_ROOTS } from '../../../internal/api/cri';
import { messageTypes } from '../../../internal/api/kept_codecs';
import { loadProtoRoot, writeProtoDescriptor } from '../../../internal/api/proto_root';
import { expectSameAsOwn, TO_OBJECT } from './same_as_own';

const ROOTS: (readonly [string, readonly string[]])[] = [...CRI_PROTO_ROOTS, ['containerd', CONTAINERD_PROTO_FILES]];

describe.each(ROOTS)('kept codecs of %s', (name, files) => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-codecs-'));
    writeProtoDescriptor(name, files, dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => jest.restoreAllMocks());

  it('sets every message type up without generating code', () => {
    const root = loadProtoRoot(name, files, dir);
    const codegen = jest.spyOn(protobuf.util, 'codegen');
    const types = messageTypes(root);
    expect(types.length).toBeGreaterThan(10);
    for (const type of types) expect(type.setup().ctor).toBe(type.ctor);
    expect(codegen).not.toHaveBeenCalled();
  });

  it('encodes, decodes, converts and verifies every type as protobufjs generating its own', () => {
    const kept = loadProtoRoot(name, files, dir);
    const own = protobuf.Root.fromJSON((JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as { root: protobuf.INamespace }).root);
    expectSameAsOwn(kept, own);
  });
});

describe('kept codecs not used', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-codecs-'));
    writeProtoDescriptor('containerd', CONTAINERD_PROTO_FILES, dir);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  const roundTrip = () => {
    const type = loadProtoRoot('containerd', CONTAINERD_PROTO_FILES, dir).lookupType('containerd.task.v2.StateResponse');
    const codegen = jest.spyOn(protobuf.util, 'codegen');
    const decoded = type.toObject(type.decode(type.encode(type.fromObject({ id: 'c1', pid: 42, status: 'RUNNING' })).finish()), TO_OBJECT);
    return { decoded: { id: decoded.id, pid: decoded.pid, status: decoded.status }, generated: codegen.mock.calls.length > 0 };
  };

  it("compile each of a type's functions on its first call only", () => {
    const type = loadProtoRoot('containerd', CONTAINERD_PROTO_FILES, dir).lookupType('containerd.task.v2.StateRequest').setup();
    // Which of encode, decode, verify, fromObject, toObject are compiled (no longer the first-call stub).
    const compiled = () => [type.encode, type.decode, type.verify, type.fromObject, type.toObject].map((f) => f.name !== 'firstCall');
    expect(compiled()).toEqual([false, false, false, false, false]);
    const bytes = type.encode(type.fromObject({ id: 'c1', exec_id: 'e1' })).finish();
    expect(compiled()).toEqual([true, false, false, true, false]); // sending: fromObject and encode only
    expect(type.toObject(type.decode(bytes))).toEqual({ id: 'c1', exec_id: 'e1' });
    expect(compiled()).toEqual([true, true, false, true, true]);
  });

  it('are used when nothing is wrong (the control for the cases below)', () => {
    expect(roundTrip()).toEqual({ decoded: { id: 'c1', pid: 42, status: 'RUNNING' }, generated: false });
  });

  it('a loaded root keeps reading the sources it was loaded with when a build writes new ones', () => {
    const type = loadProtoRoot('containerd', CONTAINERD_PROTO_FILES, dir).lookupType('containerd.task.v2.StateResponse');
    const file = join(dir, 'containerd.codecs');
    writeFileSync(`${file}.new`, '');
    renameSync(`${file}.new`, file); // as writeKeptCodecs replaces it
    const codegen = jest.spyOn(protobuf.util, 'codegen');
    expect(type.toObject(type.decode(type.encode(type.fromObject({ id: 'c1' })).finish()), TO_OBJECT).id).toBe('c1');
    expect(codegen).not.toHaveBeenCalled();
  });

  it('when another protobufjs version made them: protobufjs generates its own', () => {
    const file = join(dir, 'containerd.json');
    const descriptor = JSON.parse(readFileSync(file, 'utf8')) as { codecs: { protobufjs: string } };
    descriptor.codecs.protobufjs = '0.0.1';
    writeFileSync(file, JSON.stringify(descriptor));
    expect(roundTrip()).toEqual({ decoded: { id: 'c1', pid: 42, status: 'RUNNING' }, generated: true });
  });

  it('when the sources cannot be read: protobufjs generates its own', () => {
    writeFileSync(join(dir, 'containerd.codecs'), '');
    expect(roundTrip()).toEqual({ decoded: { id: 'c1', pid: 42, status: 'RUNNING' }, generated: true });
  });

  it("when the index points at another type's line (a file from another build): protobufjs generates its own", () => {
    const file = join(dir, 'containerd.json');
    const descriptor = JSON.parse(readFileSync(file, 'utf8')) as { codecs: { types: Record<string, [number, number]> } };
    const types = descriptor.codecs.types;
    types['.containerd.task.v2.StateResponse'] = types['.containerd.task.v2.StateRequest']!;
    writeFileSync(file, JSON.stringify(descriptor));
    expect(roundTrip()).toEqual({ decoded: { id: 'c1', pid: 42, status: 'RUNNING' }, generated: true });
  });

  it('when the sources are not the functions setup() asks for: protobufjs generates its own', () => {
    const file = join(dir, 'containerd.codecs');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"encode"/g, '"encodx"'));
    expect(roundTrip()).toEqual({ decoded: { id: 'c1', pid: 42, status: 'RUNNING' }, generated: true });
  });
});
