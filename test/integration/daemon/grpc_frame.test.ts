// The CRI server frame in-process, over a real unix socket: registered handlers are called with
// typed requests, thrown BerthErrors reach the client as their gRPC codes, server streams deliver
// every message, and unregistered methods answer UNIMPLEMENTED.
import * as grpc from '@grpc/grpc-js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../../../internal/config';
import { HandlerRegistry } from '../../../internal/cri/server/registry';
import { CriService } from '../../../internal/cri/server/service';
import { notFound } from '../../../internal/errdefs/errors';
import { createLogger } from '../../../internal/log/logger';
import { callError, criClient, type CriClient } from '../../harness/cri_client';
import { serveFrame } from '../../harness/grpc_frame';

describe('CRI gRPC frame', () => {
  let dir: string;
  let server: grpc.Server;
  let client: CriClient;
  const logLines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-frame-'));
    const logger = createLogger({ level: 'debug', write: (line) => logLines.push(JSON.parse(line) as Record<string, unknown>) });
    const svc = new CriService({ config: defaultConfig(), logger });
    const registry = new HandlerRegistry()
      .register('RuntimeService', {
        ContainerStatus: async (_svc, req) => {
          throw notFound(`container "${req.container_id}" not found`);
        },
        StreamContainers: async (_svc, req, stream) => {
          const id = req.filter?.id ?? '';
          stream.write({ containers: [{ id: `${id}-1` }] });
          stream.write({ containers: [{ id: `${id}-2` }] });
        },
        StreamPodSandboxes: async () => {
          throw new Error('disk on fire');
        },
      })
      .register('ImageService', {
        ImageFsInfo: async (s) => ({ image_filesystems: [{ fs_id: { mountpoint: s.config.root } }], container_filesystems: [] }),
      });
    const socket = join(dir, 'frame.sock');
    server = await serveFrame(svc, registry, socket);
    client = criClient(socket);
  });

  afterAll(() => {
    client?.close();
    server?.forceShutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('maps a thrown NotFound to NOT_FOUND with its message, logged as a warning with the ID', async () => {
    const err = await callError(client.runtime.ContainerStatus({ container_id: 'c1' }));
    expect(err.code).toBe(grpc.status.NOT_FOUND);
    expect(err.details).toBe('container "c1" not found');
    expect(logLines).toContainEqual(
      expect.objectContaining({ level: 'warn', method: 'runtime.v1.RuntimeService/ContainerStatus', container_id: 'c1' }),
    );
  });

  it('calls a handler with the service deps', async () => {
    const res = await client.image.ImageFsInfo({});
    expect(res.image_filesystems[0]?.fs_id?.mountpoint).toBe('/var/lib/berth');
  });

  it('delivers every message of a server stream', async () => {
    const items = await client.runtime.StreamContainers({ filter: { id: 'x' } });
    expect(items.map((i) => i.containers[0]?.id)).toEqual(['x-1', 'x-2']);
  });

  it('ends a failing stream with the error (UNKNOWN for a plain Error), logged as an error', async () => {
    const err = await callError(client.runtime.StreamPodSandboxes({}));
    expect(err.code).toBe(grpc.status.UNKNOWN);
    expect(err.details).toBe('disk on fire');
    expect(logLines).toContainEqual(
      expect.objectContaining({ level: 'error', method: 'runtime.v1.RuntimeService/StreamPodSandboxes' }),
    );
  });

  it('answers UNIMPLEMENTED for methods nobody registered, in every service', async () => {
    const cases: Array<[Promise<unknown>, string]> = [
      [client.runtime.Version({}), 'runtime.v1.RuntimeService/Version'],
      [client.image.ListImages({}), 'runtime.v1.ImageService/ListImages'],
      [client.admin.ImportImage({ path: '/x.tar' }), 'berth.admin.v1.Admin/ImportImage'],
    ];
    for (const [call, method] of cases) {
      const err = await callError(call);
      expect(err.code).toBe(grpc.status.UNIMPLEMENTED);
      expect(err.details).toBe(`${method} is not implemented by berth`);
    }
  });

  it('refuses to register a method twice', () => {
    const r = new HandlerRegistry().register('RuntimeService', { Version: async () => ({}) });
    expect(() => r.register('RuntimeService', { Version: async () => ({}) })).toThrow(
      'berth: RuntimeService/Version registered twice',
    );
  });
});
