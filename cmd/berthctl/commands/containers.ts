// berthctl ps | inspect | stop | rm, with crictl's flags and output.
import type { ContainerState__Output } from '../../../internal/api/gen/runtime/v1/ContainerState';
import type { DaemonClient } from '../client';
import { quick, slow } from '../client_run';
import { CommandError, describeFailure, EXIT_OK, UsageError } from '../errors';
import { ago, rfc3339Nano, truncateId } from '../humanize';
import { outputFormat, printStructured, table, write } from '../output';
import { criJson, statusWithInfo } from '../proto_json';
import { labelSelector, mapBlock, matchesRegex, newestFirst, type ListOptions } from './list_options';
import type { InspectOptions } from './pods';

const CONTAINER_STATES: Record<string, ContainerState__Output> = {
  created: 'CONTAINER_CREATED',
  running: 'CONTAINER_RUNNING',
  exited: 'CONTAINER_EXITED',
  unknown: 'CONTAINER_UNKNOWN',
};

function containerState(state: string): string {
  const name = state.replace(/^CONTAINER_/, '').toLowerCase();
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export interface PsOptions extends ListOptions {
  all?: boolean;
  pod?: string;
  image?: string;
}

export async function listContainers(c: DaemonClient, opts: PsOptions): Promise<void> {
  const format = outputFormat(opts.output, ['json', 'yaml', 'table']);
  let state: ContainerState__Output | undefined = opts.all ? undefined : 'CONTAINER_RUNNING';
  if (opts.state !== undefined) {
    state = CONTAINER_STATES[opts.state.toLowerCase()];
    if (state === undefined) throw new UsageError('--state should be one of created, running, exited or unknown');
  }
  // --latest and --last look at every state, as crictl's do.
  if (opts.latest || (opts.last !== undefined && Number(opts.last) > 0)) state = undefined;
  const filter = { id: opts.id ?? '', pod_sandbox_id: opts.pod ?? '', state: state ? { state } : null, label_selector: labelSelector(opts.label) };
  const { containers: listed } = await c.runtime.ListContainers({ filter }, quick());
  let imageId: string | undefined;
  if (opts.image) {
    const { image } = await c.image.ImageStatus({ image: { image: opts.image } }, quick());
    imageId = image?.id ?? '';
  }
  const containers = newestFirst(
    listed.filter(
      (ct) =>
        matchesRegex(opts.name, ct.metadata?.name ?? '') &&
        (imageId === undefined || ct.image_ref === imageId || ct.image?.image === imageId || ct.image?.image === opts.image),
    ),
    opts,
  );
  if (format !== 'table') {
    printStructured(criJson('ListContainersResponse', { containers }), format);
    return;
  }
  if (opts.quiet) {
    for (const ct of containers) write(ct.id);
    return;
  }
  const now = Date.now();
  if (opts.verbose) {
    let out = '';
    for (const ct of containers) {
      out += `ID: ${ct.id}\nPodID: ${ct.pod_sandbox_id}\n`;
      if (ct.metadata?.name) out += `Name: ${ct.metadata.name}\n`;
      out += `Attempt: ${ct.metadata?.attempt ?? 0}\nState: ${containerState(ct.state)}\n`;
      if (ct.image) out += `Image: ${ct.image.image}\n`;
      out += `Created: ${ago(ct.created_at, now)}\n`;
      out += mapBlock('Labels', ct.labels) + mapBlock('Annotations', ct.annotations) + '\n';
    }
    process.stdout.write(out);
    return;
  }
  const rows = [['CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD']];
  for (const ct of containers) {
    let image = ct.image?.image ?? '';
    if (!opts.noTrunc && /^sha256:[0-9a-f]{64}$/.test(image)) image = truncateId(image, 'sha256:');
    rows.push([
      opts.noTrunc ? ct.id : truncateId(ct.id),
      image,
      ago(ct.created_at, now),
      containerState(ct.state),
      ct.metadata?.name ?? '',
      String(ct.metadata?.attempt ?? 0),
      opts.noTrunc ? ct.pod_sandbox_id : truncateId(ct.pod_sandbox_id),
      ct.labels['io.kubernetes.pod.name'] ?? '',
    ]);
  }
  process.stdout.write(table(rows));
}

export async function inspectContainers(c: DaemonClient, ids: string[], opts: InspectOptions): Promise<void> {
  const format = outputFormat(opts.output, ['json', 'yaml', 'table']);
  const now = Date.now();
  for (const id of ids) {
    const r = await c.runtime.ContainerStatus({ container_id: id, verbose: !opts.quiet }, quick());
    const s = r.status;
    if (!s) throw new CommandError(`container ${JSON.stringify(id)} has no status`);
    const started = s.state !== 'CONTAINER_CREATED';
    const finished = s.state === 'CONTAINER_EXITED' || (s.state === 'CONTAINER_UNKNOWN' && s.finished_at !== '0');
    if (format !== 'table') {
      // crictl's marshalContainerStatus: times as RFC 3339, zero time for what has not happened.
      const status = {
        ...criJson('ContainerStatus', s),
        createdAt: rfc3339Nano(s.created_at),
        startedAt: started ? rfc3339Nano(s.started_at) : '0001-01-01T00:00:00Z',
        finishedAt: finished ? rfc3339Nano(s.finished_at) : '0001-01-01T00:00:00Z',
      };
      printStructured(statusWithInfo(status, r.info), format);
      continue;
    }
    let out = `ID: ${s.id}\n`;
    if (s.metadata?.name) out += `Name: ${s.metadata.name}\n`;
    if (s.metadata && s.metadata.attempt !== 0) out += `Attempt: ${s.metadata.attempt}\n`;
    out += `State: ${s.state}\nCreated: ${ago(s.created_at, now)}\n`;
    if (started) out += `Started: ${ago(s.started_at, now)}\n`;
    if (s.state === 'CONTAINER_EXITED') {
      if (s.finished_at !== '0') out += `Finished: ${ago(s.finished_at, now)}\n`;
      out += `Exit Code: ${s.exit_code}\n`;
    }
    out += mapBlock('Labels', s.labels) + mapBlock('Annotations', s.annotations);
    if (!opts.quiet) out += `Info: ${JSON.stringify(r.info)}\n`;
    process.stdout.write(out);
  }
}

export async function stopContainers(c: DaemonClient, ids: string[], timeout: string | undefined): Promise<void> {
  const seconds = timeout === undefined ? 0 : Number(timeout);
  if (!Number.isInteger(seconds) || seconds < 0) throw new UsageError(`--timeout: not a number of seconds: ${timeout}`);
  for (const id of ids) {
    await c.runtime.StopContainer({ container_id: id, timeout: String(seconds) }, { deadline: Date.now() + (seconds + 120) * 1000 });
    write(id);
  }
}

export interface RemoveContainersOptions {
  force?: boolean;
  all?: boolean;
}

/** crictl rm: a running container is refused unless --force, which stops it (timeout 0) first. */
export async function removeContainers(c: DaemonClient, verb: string, address: string, ids: string[], opts: RemoveContainersOptions): Promise<number> {
  const targets = opts.all ? (await c.runtime.ListContainers({}, quick())).containers.map((ct) => ct.id) : ids;
  if (targets.length === 0) {
    if (opts.all) return EXIT_OK;
    throw new UsageError('no container to remove: name one, or give --all');
  }
  let code = EXIT_OK;
  for (const id of targets) {
    try {
      const { status } = await c.runtime.ContainerStatus({ container_id: id, verbose: false }, quick());
      if (status?.state === 'CONTAINER_RUNNING') {
        if (!opts.force) throw new CommandError(`container ${JSON.stringify(id)} is running, please stop it first`);
        await c.runtime.StopContainer({ container_id: id, timeout: '0' }, slow());
      }
      await c.runtime.RemoveContainer({ container_id: id }, slow());
      write(id);
    } catch (err) {
      const failure = describeFailure(verb, err, address);
      process.stderr.write(`${failure.line}\n`);
      code = Math.max(code, failure.code);
    }
  }
  return code;
}
