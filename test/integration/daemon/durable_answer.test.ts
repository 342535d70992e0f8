// A call is answered only once every commit before its answer is on disk (MetadataDB.durable), as
// with SQLite's own fsync in each commit: the server frame waits for the WAL's flush, and a failed
// flush is the call's error. With nothing new committed, no flush is asked for.
import * as grpc from '@grpc/grpc-js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultConfig } from '../../../internal/config';
import { HandlerRegistry } from '../../../internal/cri/server/registry';
import { CriService } from '../../../internal/cri/server/service';
import { silentLogger } from '../../../internal/log/logger';
import { MetadataDB } from '../../../internal/metadata/db';
import { callError, criClient, type CriClient } from '../../harness/cri_client';
import { serveFrame } from '../../harness/grpc_frame';

describe('answers after durability', () => {
  let dir: string;
  let server: grpc.Server;
  let client: CriClient;
  let db: MetadataDB;
  /** Flushes the test holds back, and what each is told to do. */
  const flushes: Array<(err?: Error) => void> = [];
  let flushAsked: (() => void) | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-durable-answer-'));
    db = MetadataDB.open(join(dir, 'meta.db'), [{ version: 1, description: 'a test table', sql: 'CREATE TABLE t (x INTEGER)' }], () =>
      new Promise<void>((resolve, reject) => {
        flushes.push((err) => (err ? reject(err) : resolve()));
        flushAsked?.();
      }),
    );
    const svc = new CriService({ config: defaultConfig(), logger: silentLogger, db });
    const registry = new HandlerRegistry().register('RuntimeService', {
      // A write, then the answer.
      RemoveContainer: async (s) => {
        s.deps.db!.tx(() => s.deps.db!.sqlite.prepare('INSERT INTO t (x) VALUES (1)').run());
        return {};
      },
      Version: async () => ({ version: '0.1.0', runtime_name: 'berth', runtime_version: 'test', runtime_api_version: 'v1' }),
    });
    const socket = join(dir, 'durable.sock');
    server = await serveFrame(svc, registry, socket);
    client = criClient(socket);
  });

  afterAll(() => {
    client?.close();
    server?.forceShutdown();
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const nextFlush = () => (flushes.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => (flushAsked = resolve)));

  it('holds every answer until what was committed before it is on disk; a call after that needs no flush', async () => {
    let removed = false;
    let versioned = false;
    const remove = client.runtime.RemoveContainer({ container_id: 'c1' }).then(() => {
      removed = true;
    });
    await nextFlush(); // the migration's commit and the call's, in one flush
    // A call that wrote nothing, answered while that flush runs, may not tell what is not on disk yet.
    const version = client.runtime.Version({}).then(() => {
      versioned = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(removed).toBe(false);
    expect(flushes).toHaveLength(1);
    flushes.shift()!();
    await Promise.all([remove, version]);
    expect(removed && versioned).toBe(true);
    await client.runtime.Version({});
    expect(flushes).toHaveLength(0); // nothing new to flush, none asked
  });

  it("answers a failed flush as the call's error", async () => {
    const call = callError(client.runtime.RemoveContainer({ container_id: 'c2' }));
    await nextFlush();
    flushes.shift()!(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    const err = await call;
    expect(err.code).not.toBe(grpc.status.OK);
    expect(err.details).toContain('EIO');
  });
});
