// Test-only fault injection for the crash policy (crash_policy.ts), like BERTH_CRASH_AT's crash
// points: BERTH_INJECT_FAULT, read once at start, makes a serving berthd raise one error nothing
// catches — `uncaught_exception`, `unhandled_rejection`, or `stuck_transaction` (as the metadata
// layer raises when a rollback failed). Unset or empty: nothing happens.
import { DatabaseStateError } from '../../internal/metadata/errors';

export function injectFaultFromEnv(env: NodeJS.ProcessEnv = process.env): void {
  const fault = env.BERTH_INJECT_FAULT ?? '';
  if (fault === '') return;
  setImmediate(() => {
    switch (fault) {
      case 'uncaught_exception':
        throw new Error('injected fault: uncaught exception');
      case 'unhandled_rejection':
        void Promise.reject(new Error('injected fault: unhandled rejection'));
        return;
      case 'stuck_transaction':
        throw new DatabaseStateError('injected fault: metadata transaction could not be rolled back');
      default:
        process.stderr.write(`berthd: BERTH_INJECT_FAULT=${fault}: unknown fault, ignored\n`);
    }
  });
}
