// An interactive exec/attach client for tests that must talk to a process while it runs (write,
// wait for an answer, write again), which the harness's run-to-completion streamExec cannot do.
// Built on the harness's SPDY primitives and on `ws`, independently of the server's code.
import type { SpdyStream } from 'spdy-transport';
import WebSocket from 'ws';
import { openSpdyStream, spdyUpgrade, type Transport } from '../../harness/streaming_client';

export interface InteractiveOptions {
  transport: Transport;
  tty: boolean;
  /** Open stdin (default true). */
  stdin?: boolean;
}

export interface InteractiveSession {
  write(data: string): void;
  /** Half-closes stdin (SPDY FIN / v5 close signal). */
  closeStdin(): void;
  resize(width: number, height: number): void;
  /** Resolves with all of stdout so far once it matches (a guard of `timeoutMs` against hanging). */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<string>;
  stdout(): string;
  stderr(): string;
  /** Resolves when the server ends the session, with what it wrote on the error stream. */
  ended: Promise<string>;
  /** Cuts the connection. */
  close(): void;
}

class Output {
  private readonly chunks: Record<'stdout' | 'stderr' | 'error', Buffer[]> = { stdout: [], stderr: [], error: [] };
  private readonly waiters = new Set<() => void>();

  push(kind: 'stdout' | 'stderr' | 'error', chunk: Buffer): void {
    this.chunks[kind].push(Buffer.from(chunk));
    for (const w of this.waiters) w();
  }

  text(kind: 'stdout' | 'stderr' | 'error'): string {
    return Buffer.concat(this.chunks[kind]).toString();
  }

  waitFor(pattern: RegExp, timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const text = this.text('stdout');
        if (!pattern.test(text)) return false;
        this.waiters.delete(onData);
        clearTimeout(timer);
        resolve(text);
        return true;
      };
      const onData = () => void check();
      const timer = setTimeout(() => {
        this.waiters.delete(onData);
        reject(new Error(`stdout never matched ${pattern}: ${JSON.stringify(this.text('stdout'))}`));
      }, timeoutMs);
      if (!check()) this.waiters.add(onData);
    });
  }
}

async function spdySession(url: string, opts: InteractiveOptions): Promise<InteractiveSession> {
  const out = new Output();
  const client = await spdyUpgrade(url, ['v4.channel.k8s.io']);
  // Like client-go: the session is over once the error stream ends (the server wrote the status).
  let errorEnded = () => {};
  const ended = new Promise<string>((resolve) => {
    errorEnded = () => resolve(out.text('error'));
    client.socket.once('close', errorEnded);
  });
  try {
    const collectInto = (stream: SpdyStream, kind: 'stdout' | 'stderr' | 'error') => stream.on('data', (c: Buffer) => out.push(kind, c));
    const error = await openSpdyStream(client.conn, { streamtype: 'error' });
    error.end();
    collectInto(error, 'error');
    error.once('end', () => {
      errorEnded();
      client.socket.destroy();
    });
    const stdin = opts.stdin === false ? undefined : await openSpdyStream(client.conn, { streamtype: 'stdin' });
    collectInto(await openSpdyStream(client.conn, { streamtype: 'stdout' }), 'stdout');
    if (!opts.tty) collectInto(await openSpdyStream(client.conn, { streamtype: 'stderr' }), 'stderr');
    const resize = opts.tty ? await openSpdyStream(client.conn, { streamtype: 'resize' }) : undefined;
    return {
      write: (data) => stdin?.write(data),
      closeStdin: () => stdin?.end(),
      resize: (width, height) => resize?.write(JSON.stringify({ Width: width, Height: height }) + '\n'),
      waitForStdout: (pattern, timeoutMs = 30_000) => out.waitFor(pattern, timeoutMs),
      stdout: () => out.text('stdout'),
      stderr: () => out.text('stderr'),
      ended,
      close: () => client.socket.destroy(),
    };
  } catch (err) {
    client.socket.destroy();
    throw err;
  }
}

async function webSocketSession(url: string): Promise<InteractiveSession> {
  const out = new Output();
  const kinds = { 1: 'stdout', 2: 'stderr', 3: 'error' } as const;
  const ws = new WebSocket(url.replace(/^http/, 'ws'), ['v5.channel.k8s.io']);
  ws.on('message', (data: Buffer) => {
    const kind = kinds[data[0] as 1 | 2 | 3];
    if (kind) out.push(kind, data.subarray(1));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const ended = new Promise<string>((resolve) => ws.once('close', () => resolve(out.text('error'))));
  const send = (channel: number, payload: Buffer) => ws.send(Buffer.concat([Buffer.of(channel), payload]));
  return {
    write: (data) => send(0, Buffer.from(data)),
    closeStdin: () => ws.send(Buffer.of(255, 0)),
    resize: (width, height) => send(4, Buffer.from(JSON.stringify({ Width: width, Height: height }))),
    waitForStdout: (pattern, timeoutMs = 30_000) => out.waitFor(pattern, timeoutMs),
    stdout: () => out.text('stdout'),
    stderr: () => out.text('stderr'),
    ended,
    close: () => ws.terminate(),
  };
}

/** Opens an exec/attach URL and keeps the session open until the server ends it or close(). */
export function openInteractive(url: string, opts: InteractiveOptions): Promise<InteractiveSession> {
  return opts.transport === 'spdy' ? spdySession(url, opts) : webSocketSession(url);
}
