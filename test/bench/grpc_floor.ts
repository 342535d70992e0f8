// The gRPC floor of the query rows: the same calls timed against a bare grpc-js server in a Node
// process run with bin/berthd's Node flags (grpc_floor_child.ts), answering each with berthd's own
// answer to it, so a row shows how much of berthd's latency is Node, HTTP/2, grpc-js and protobuf
// encoding (which any Node CRI server built on the design card's packages pays) and how much is
// berth's own. The child is ours: killed by its PID, its socket removed.
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CriClient } from '../harness/cri_client';
import { spawnFloorScript, stderrTail } from './floor_process';
import type { SetAnswer } from './grpc_floor_child';
import { benchCriClient } from './peers/client';
import { answerKey } from './request_shape';

const READY_TIMEOUT_MS = 30_000;

type ChildMessage = { ready: true } | { set: string };

export class GrpcFloor {
  private constructor(
    private readonly child: ChildProcess,
    private readonly socket: string,
    readonly cri: CriClient,
  ) {}

  /** Starts the floor server on `<dir>/grpc-floor.sock`. */
  static async start(dir: string): Promise<GrpcFloor> {
    const socket = join(dir, 'grpc-floor.sock');
    const child = spawnFloorScript('grpc_floor_child', [socket], ['ignore', 'ignore', 'pipe', 'ipc'], true);
    const stderr = stderrTail(child);
    try {
      await new Promise<void>((resolve, reject) => {
        const fail = (why: string) => {
          clearTimeout(timer);
          reject(new Error(`gRPC floor: ${why}${stderr() ? `: ${stderr()}` : ''}`));
        };
        const timer = setTimeout(() => fail(`not serving after ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
        child.once('error', (err) => fail(err.message));
        child.once('exit', (code, signal) => fail(`exited ${code ?? signal} before serving`));
        child.once('message', () => {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          resolve();
        });
      });
    } catch (err) {
      child.kill('SIGKILL');
      rmSync(socket, { force: true });
      throw err;
    }
    return new GrpcFloor(child, socket, benchCriClient(socket));
  }

  get pid(): number {
    return this.child.pid!;
  }

  /**
   * Makes `method` of `service` ("runtime", "image") answer `response` from now on to requests
   * whose filter sets the same fields as `request`'s (request_shape.ts).
   */
  answer(service: string, method: string, response: unknown, request: unknown = {}): Promise<void> {
    const key = answerKey(service, method, request);
    return new Promise((resolve, reject) => {
      const onMessage = (message: ChildMessage) => {
        if (!('set' in message) || message.set !== key) return;
        this.child.off('exit', onExit);
        this.child.off('message', onMessage);
        resolve();
      };
      const onExit = () => {
        this.child.off('message', onMessage);
        reject(new Error('gRPC floor: the floor process exited'));
      };
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
      this.child.send({ key, response } satisfies SetAnswer);
    });
  }

  /** Closes the client, kills the floor process (ours, by PID) and removes its socket. */
  async stop(): Promise<void> {
    this.cri.close();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGKILL');
      await exited;
    }
    rmSync(this.socket, { force: true });
  }
}
