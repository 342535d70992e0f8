// The images layer parses configs into its own shape; the spec builders take image-spec keys.
import type { ImageConfig as ParsedImageConfig } from '../images/oci';
import type { ImageConfig as SpecImageConfig } from './opts/types';

export function specImageConfig(c: ParsedImageConfig): SpecImageConfig {
  return {
    User: c.user,
    Env: c.env,
    Entrypoint: c.entrypoint,
    Cmd: c.cmd,
    WorkingDir: c.workingDir,
    StopSignal: c.stopSignal,
    Volumes: Object.fromEntries(c.volumes.map((v) => [v, {}])),
  };
}
