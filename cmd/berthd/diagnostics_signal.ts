// SIGUSR1. containerd dumps its goroutine stacks into its log; Node's default is to open its
// inspector on 127.0.0.1:9229, unauthenticated, in berthd's root process: any local process, a pod
// on the host network among them, could then attach and run code as root. So berthd takes the
// signal itself, which keeps the inspector closed, and logs a diagnostic report instead (Node's
// process.report: heap, libuv handles, resource use, native and JavaScript stacks): a summary line
// in the log, the whole report in <state>/berthd-report.json (0600: it holds the environment),
// replaced at each signal so that signals cannot fill the disk.
import { join } from 'node:path';
import { messageOf } from '../../internal/errdefs/errors';
import { replaceFileSync } from '../../internal/fs/replace_file';
import type { Logger } from '../../internal/log/logger';

const REPORT_FILE = 'berthd-report.json';

let reportTo: { logger: Logger; state: string } | undefined;
let taken = false;

/** Takes SIGUSR1 from Node's inspector; until reportOnSigusr1() the signal is ignored. */
export function takeSigusr1(): void {
  if (taken) return;
  taken = true;
  process.on('SIGUSR1', () => {
    if (reportTo) writeReport(reportTo.logger, reportTo.state);
  });
}

/** From now on SIGUSR1 writes a diagnostic report (see above). */
export function reportOnSigusr1(logger: Logger, state: string): void {
  takeSigusr1();
  reportTo = { logger, state };
}

interface NodeReport {
  javascriptHeap: { usedMemory: number; totalMemory: number };
  resourceUsage: { rss: number; userCpuSeconds: number; kernelCpuSeconds: number };
  libuv: Array<{ type: string; is_active: boolean }>;
}

function writeReport(logger: Logger, state: string): void {
  const report = process.report.getReport() as unknown as NodeReport;
  const handles: Record<string, number> = {};
  for (const handle of report.libuv) if (handle.is_active) handles[handle.type] = (handles[handle.type] ?? 0) + 1;
  const path = join(state, REPORT_FILE);
  let written: string | undefined = path;
  try {
    replaceFileSync(path, JSON.stringify(report), 0o600);
  } catch (err) {
    written = undefined;
    logger.warn('cannot write the diagnostic report', { path, error: messageOf(err) });
  }
  logger.info('diagnostic report (SIGUSR1)', {
    report: written,
    rssBytes: report.resourceUsage.rss,
    heapUsedBytes: report.javascriptHeap.usedMemory,
    heapTotalBytes: report.javascriptHeap.totalMemory,
    cpuSeconds: report.resourceUsage.userCpuSeconds + report.resourceUsage.kernelCpuSeconds,
    activeHandles: handles,
  });
}
