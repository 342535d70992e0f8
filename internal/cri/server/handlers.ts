// Every CRI and admin handler berthd serves, in one list. A new RPC file exports its handler and
// gets one line here; anything not listed answers UNIMPLEMENTED.
import { HandlerRegistry } from './registry';
import { runtimeConfig } from './runtime_config';
import { status } from './status';
import { version } from './version';

export function berthHandlers(): HandlerRegistry {
  return new HandlerRegistry()
    .register('RuntimeService', {
      Version: version,
      Status: status,
      RuntimeConfig: runtimeConfig,
    })
    .register('ImageService', {})
    .register('Admin', {});
}
