// berthctl logs [-f] [--tail N] [-t] [-p] CONTAINER: the container's CRI log file, found through
// ContainerStatus.log_path, read as crictl reads it (cri_log.ts).
import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import type { DaemonClient } from '../client';
import { quick } from '../client_run';
import { CommandError, UsageError } from '../errors';
import { printLog, tailOffset } from '../cri_log';

export interface LogsOptions {
  follow?: boolean;
  tail: string;
  timestamps?: boolean;
  previous?: boolean;
}

function writer(stream: 'stdout' | 'stderr', data: Buffer): Promise<void> {
  const out = stream === 'stdout' ? process.stdout : process.stderr;
  return new Promise((resolve) => {
    if (out.write(data)) resolve();
    else out.once('drain', resolve);
  });
}

export async function containerLogs(c: DaemonClient, id: string, opts: LogsOptions): Promise<void> {
  const tail = Number(opts.tail);
  if (!Number.isInteger(tail) || tail < -1) throw new UsageError(`--tail: not a line count: ${opts.tail}`);
  const { status } = await c.runtime.ContainerStatus({ container_id: id, verbose: false }, quick());
  let path = status?.log_path ?? '';
  if (path === '') throw new CommandError('The container has not set log path');
  if (opts.previous) {
    // kubelet's layout: <name>/<attempt>.log; the previous instance is attempt - 1.
    const attempt = status?.metadata?.attempt ?? 0;
    if (attempt === 0) throw new CommandError(`Previous terminated container ${status?.metadata?.name ?? id} not found`);
    path = join(dirname(path), `${attempt - 1}${extname(basename(path))}`);
  }
  if (!existsSync(path)) throw new CommandError(`log file ${path} does not exist`);
  const offset = tail < 0 ? 0 : tailOffset(path, tail);
  const containerId = status!.id;
  await printLog(path, offset, {
    follow: opts.follow === true && !opts.previous,
    timestamps: opts.timestamps === true,
    write: writer,
    stillRunning: async () => {
      try {
        const r = await c.runtime.ContainerStatus({ container_id: containerId, verbose: false }, quick());
        return r.status?.state === 'CONTAINER_RUNNING';
      } catch {
        return false; // removed
      }
    },
  });
}
