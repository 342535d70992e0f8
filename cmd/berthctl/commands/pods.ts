// berthctl pods | inspectp | stopp | rmp, with crictl's flags and output.
import type { PodSandbox__Output } from '../../../internal/api/gen/runtime/v1/PodSandbox';
import type { DaemonClient } from '../client';
import { quick, slow } from '../client_run';
import { CommandError, describeFailure, EXIT_OK, UsageError } from '../errors';
import { ago, rfc3339Nano, truncateId } from '../humanize';
import { outputFormat, printStructured, table, write } from '../output';
import { criJson, statusWithInfo } from '../proto_json';
import { labelSelector, mapBlock, matchesRegex, newestFirst, type ListOptions } from './list_options';

const POD_STATES: Record<string, 'SANDBOX_READY' | 'SANDBOX_NOTREADY'> = { ready: 'SANDBOX_READY', notready: 'SANDBOX_NOTREADY' };

function podState(state: string): string {
  return state === 'SANDBOX_READY' ? 'Ready' : state === 'SANDBOX_NOTREADY' ? 'NotReady' : state;
}

const runtimeHandler = (pod: PodSandbox__Output) => (pod.runtime_handler === '' ? '(default)' : pod.runtime_handler);

export async function listPods(c: DaemonClient, opts: ListOptions): Promise<void> {
  const format = outputFormat(opts.output, ['json', 'yaml', 'table']);
  let state: 'SANDBOX_READY' | 'SANDBOX_NOTREADY' | undefined;
  if (opts.state !== undefined) {
    state = POD_STATES[opts.state.toLowerCase()];
    if (state === undefined) throw new UsageError('--state should be ready or notready');
  }
  const filter = { id: opts.id ?? '', state: state ? { state } : null, label_selector: labelSelector(opts.label) };
  const { items } = await c.runtime.ListPodSandbox({ filter }, quick());
  const pods = newestFirst(
    items.filter((p) => matchesRegex(opts.name, p.metadata?.name ?? '') && matchesRegex(opts.namespace, p.metadata?.namespace ?? '')),
    opts,
  );
  if (format !== 'table') {
    printStructured(criJson('ListPodSandboxResponse', { items: pods }), format);
    return;
  }
  if (opts.quiet) {
    for (const pod of pods) write(pod.id);
    return;
  }
  if (opts.verbose) {
    let out = '';
    for (const pod of pods) {
      const m = pod.metadata;
      out += `ID: ${pod.id}\n`;
      if (m?.name) out += `Name: ${m.name}\n`;
      if (m?.uid) out += `UID: ${m.uid}\n`;
      if (m?.namespace) out += `Namespace: ${m.namespace}\n`;
      if (m && m.attempt !== 0) out += `Attempt: ${m.attempt}\n`;
      out += `Status: ${podState(pod.state)}\nCreated: ${rfc3339Nano(pod.created_at)}\n`;
      out += mapBlock('Labels', pod.labels) + mapBlock('Annotations', pod.annotations);
      out += `Runtime: ${runtimeHandler(pod)}\n\n`;
    }
    process.stdout.write(out);
    return;
  }
  const rows = [['POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT', 'RUNTIME']];
  const now = Date.now();
  for (const pod of pods) {
    rows.push([
      opts.noTrunc ? pod.id : truncateId(pod.id),
      ago(pod.created_at, now),
      podState(pod.state),
      pod.metadata?.name ?? '',
      pod.metadata?.namespace ?? '',
      String(pod.metadata?.attempt ?? 0),
      runtimeHandler(pod),
    ]);
  }
  process.stdout.write(table(rows));
}

export interface InspectOptions {
  output: string;
  quiet?: boolean;
}

export async function inspectPods(c: DaemonClient, ids: string[], opts: InspectOptions): Promise<void> {
  const format = outputFormat(opts.output, ['json', 'yaml', 'table']);
  for (const id of ids) {
    const r = await c.runtime.PodSandboxStatus({ pod_sandbox_id: id, verbose: !opts.quiet }, quick());
    const s = r.status;
    if (!s) throw new CommandError(`pod sandbox ${JSON.stringify(id)} has no status`);
    if (format !== 'table') {
      const status = { ...criJson('PodSandboxStatus', s), createdAt: rfc3339Nano(s.created_at) };
      printStructured(statusWithInfo(status, r.info), format);
      continue;
    }
    let out = `ID: ${s.id}\n`;
    const m = s.metadata;
    if (m) {
      if (m.name) out += `Name: ${m.name}\n`;
      if (m.uid) out += `UID: ${m.uid}\n`;
      if (m.namespace) out += `Namespace: ${m.namespace}\n`;
      out += `Attempt: ${m.attempt}\n`;
    }
    out += `Status: ${s.state}\nCreated: ${rfc3339Nano(s.created_at)}\n`;
    if (s.network) {
      out += `IP Addresses: ${s.network.ip}\n`;
      for (const ip of s.network.additional_ips) out += `Additional IP: ${ip.ip}\n`;
    }
    out += mapBlock('Labels', s.labels) + mapBlock('Annotations', s.annotations);
    if (!opts.quiet) out += `Info: ${JSON.stringify(r.info)}\n`;
    process.stdout.write(out);
  }
}

export async function stopPods(c: DaemonClient, ids: string[]): Promise<void> {
  for (const id of ids) {
    await c.runtime.StopPodSandbox({ pod_sandbox_id: id }, slow());
    write(`Stopped sandbox ${id}`);
  }
}

export interface RemovePodsOptions {
  force?: boolean;
  all?: boolean;
}

/** crictl rmp: a ready pod is refused unless --force, which stops it first. */
export async function removePods(c: DaemonClient, verb: string, address: string, ids: string[], opts: RemovePodsOptions): Promise<number> {
  const targets = opts.all ? (await c.runtime.ListPodSandbox({}, quick())).items.map((p) => p.id) : ids;
  if (targets.length === 0) {
    if (opts.all) return EXIT_OK;
    throw new UsageError('no pod to remove: name one, or give --all');
  }
  let code = EXIT_OK;
  for (const id of targets) {
    try {
      const { status } = await c.runtime.PodSandboxStatus({ pod_sandbox_id: id, verbose: false }, quick());
      if (status?.state === 'SANDBOX_READY') {
        if (!opts.force) throw new CommandError(`pod sandbox ${JSON.stringify(id)} is running, please stop it first`);
        await c.runtime.StopPodSandbox({ pod_sandbox_id: id }, slow());
      }
      await c.runtime.RemovePodSandbox({ pod_sandbox_id: id }, slow());
      write(`Removed sandbox ${id}`);
    } catch (err) {
      const failure = describeFailure(verb, err, address);
      process.stderr.write(`${failure.line}\n`);
      code = Math.max(code, failure.code);
    }
  }
  return code;
}
