// Running one CNI plugin binary per the spec: config on stdin, parameters in CNI_* environment
// variables, result or error JSON on stdout. Bounded by a timeout that kills only our child.
// Started through posix_spawn (internal/sys/process): a fork() of berthd costs more than the plugin.
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import { clipText } from '../errdefs/clip_text';
import { deadlineExceeded, internal, notFound } from '../errdefs/errors';
import { daemonEnv, runProcess } from '../sys/process';
import type { CniPluginError } from './types';

export type CniCommand = 'ADD' | 'DEL' | 'CHECK' | 'VERSION';

export interface PluginExecRequest {
  /** The plugin's `type`: the binary's name. */
  pluginType: string;
  /** Only used to name the network in errors. */
  networkName: string;
  binDirs: string[];
  command: CniCommand;
  containerId: string;
  netns: string;
  ifName: string;
  /** Already joined CNI_ARGS ("K=V;K=V"). */
  cniArgs: string;
  stdin: Record<string, unknown>;
  timeoutMs: number;
}

/** The first executable `<dir>/<type>` among binDirs; NotFound naming the plugin and the dirs. */
export function findPlugin(pluginType: string, binDirs: string[]): string {
  for (const dir of binDirs) {
    const candidate = join(dir, pluginType);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this dir; try the next
    }
  }
  throw notFound(`CNI plugin "${pluginType}" not found in ${binDirs.join(':') || '(no bin dirs)'}`);
}

/** The spec's error object when stdout holds one, else undefined. */
function parsePluginError(stdout: string): CniPluginError | undefined {
  try {
    const json: unknown = JSON.parse(stdout);
    if (typeof json !== 'object' || json === null) return undefined;
    const { code, msg, details } = json as Record<string, unknown>;
    if (typeof code !== 'number' || typeof msg !== 'string') return undefined;
    return { code, msg, ...(typeof details === 'string' && details !== '' ? { details } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * Runs the plugin and returns its parsed stdout JSON (undefined when it printed nothing, as DEL may).
 * A non-zero exit becomes an Internal error naming the plugin, command and network, carrying the
 * plugin's {code,msg,details} when it printed one, else its stderr.
 */
export async function execPlugin(req: PluginExecRequest): Promise<Record<string, unknown> | undefined> {
  const binary = findPlugin(req.pluginType, req.binDirs);
  const what = `CNI plugin "${req.pluginType}" ${req.command} on network "${req.networkName}" for ${req.containerId}`;
  const env: NodeJS.ProcessEnv = {
    ...daemonEnv(),
    CNI_COMMAND: req.command,
    CNI_CONTAINERID: req.containerId,
    CNI_NETNS: req.netns,
    CNI_IFNAME: req.ifName,
    CNI_ARGS: req.cniArgs,
    CNI_PATH: req.binDirs.join(':'),
  };
  const exit = await runProcess({ file: binary, args: [], env, stdin: JSON.stringify(req.stdin), timeoutMs: req.timeoutMs }).catch(
    (err: unknown) => {
      throw internal(`${what}: ${err instanceof Error ? err.message : String(err)}`, err);
    },
  );
  const out = exit.stdout.toString('utf8').trim();
  if (exit.timedOut) throw deadlineExceeded(`${what}: timed out after ${req.timeoutMs}ms`);
  if (exit.code !== 0) {
    const pluginError = parsePluginError(out);
    if (pluginError) {
      const details = pluginError.details ? ` (${clipText(pluginError.details)})` : '';
      throw internal(`${what} failed: ${clipText(pluginError.msg)}${details} [code ${pluginError.code}]`);
    }
    const err = clipText(exit.stderr.toString('utf8').trim());
    const how = exit.signal ? `killed by ${exit.signal}` : `exit status ${exit.code}`;
    throw internal(`${what} failed: ${how}${err ? `: ${err}` : ''}${out ? `: ${clipText(out)}` : ''}`);
  }
  if (out === '') return undefined;
  try {
    const json: unknown = JSON.parse(out);
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('not a JSON object');
    return json as Record<string, unknown>;
  } catch (err) {
    throw internal(`${what}: cannot parse its output: ${(err as Error).message}: ${clipText(out, 500)}`);
  }
}
