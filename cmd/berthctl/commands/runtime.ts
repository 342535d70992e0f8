// berthctl version | status | info: the CRI Version and Status calls, printed as crictl prints them.
import type { DaemonClient } from '../client';
import { quick } from '../client_run';
import { outputFormat, printStructured, write } from '../output';
import { criJson, statusWithInfo } from '../proto_json';

export async function version(c: DaemonClient): Promise<void> {
  const v = await c.runtime.Version({}, quick());
  write(`Version:  ${v.version}\nRuntimeName:  ${v.runtime_name}\nRuntimeVersion:  ${v.runtime_version}\nRuntimeApiVersion:  ${v.runtime_api_version}`);
}

/** berthctl's own `status` (kept from before `info`): status, handlers and info, as the .proto names them. */
export async function status(c: DaemonClient): Promise<void> {
  const s = await c.runtime.Status({ verbose: true }, quick());
  const info = statusWithInfo(null, s.info);
  delete info.status;
  write(JSON.stringify({ status: s.status, runtime_handlers: s.runtime_handlers, info }, null, 2));
}

export interface InfoOptions {
  output: string;
  quiet?: boolean;
}

/** crictl info: {"status": <RuntimeStatus>, <info keys>...}. */
export async function info(c: DaemonClient, opts: InfoOptions): Promise<void> {
  const format = outputFormat(opts.output, ['json', 'yaml']);
  const s = await c.runtime.Status({ verbose: !opts.quiet }, quick());
  printStructured(statusWithInfo(criJson('RuntimeStatus', s.status), s.info), format as 'json' | 'yaml');
}
