// berthd's configuration (berth.toml): schema and defaults, loading, flag overrides.
export { berthConfigSchema, LOG_LEVELS } from './schema';
export type { BerthConfig, CriConfig, CniConfig, RuntimeHandlerConfig } from './schema';
export { defaultConfig, loadConfig, parseConfig, validateConfig } from './load';
export { applyFlags, type ConfigFlags } from './flags';
