// Command-line overrides: a flag beats the file, the file beats the default (as containerd does).
import type { LogLevel } from '../log/logger';
import { validateConfig } from './load';
import type { BerthConfig } from './schema';

export interface ConfigFlags {
  address?: string;
  root?: string;
  state?: string;
  logLevel?: LogLevel | string;
}

/** A new config with the given flags applied and checked again (so `--root relative` is refused). */
export function applyFlags(config: BerthConfig, flags: ConfigFlags): BerthConfig {
  const merged = {
    ...config,
    ...(flags.address !== undefined && { address: flags.address }),
    ...(flags.root !== undefined && { root: flags.root }),
    ...(flags.state !== undefined && { state: flags.state }),
    ...(flags.logLevel !== undefined && { log_level: flags.logLevel }),
  };
  return validateConfig(merged, '<flags>');
}
