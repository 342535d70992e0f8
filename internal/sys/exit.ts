// Leaving the process at once (internal/sys/src/exit.c).
import { loadAddon } from './addon';

interface ExitAddon {
  exitNow(code: number): never;
}

/**
 * _exit(code): no 'exit' event, no Node or library exit handlers, no joining of Node's threads.
 * Only for when everything that must outlive the process is written (stderr is synchronous here).
 */
export function exitNow(code: number): never {
  return loadAddon<ExitAddon>().exitNow(code);
}
