// The exec/attach outcome as client-go reads it from the error stream. Protocol v4 (and the
// WebSocket v4/v5 channels) carry a JSON metav1.Status; older protocols carry the failure message
// as plain text and nothing on success. Field order and omissions follow Go's json.Marshal of
// metav1.Status, so the bytes match what kubelet sends.

export interface StatusCause {
  reason?: string;
  message?: string;
}

export interface Status {
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: { causes: StatusCause[] };
  code?: number;
}

export const successStatus = (): Status => ({ metadata: {}, status: 'Success' });

/** Renders a command the way Go's %v prints a []string: "[sh -c exit 3]". */
const goStringSlice = (cmd: string[]): string => `[${cmd.join(' ')}]`;

export function nonZeroExitStatus(cmd: string[], exitCode: number): Status {
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command ${goStringSlice(cmd)}, exit code ${exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
  };
}

export function internalErrorStatus(message: string): Status {
  return {
    metadata: {},
    status: 'Failure',
    message: `Internal error occurred: ${message}`,
    reason: 'InternalError',
    details: { causes: [{ message }] },
    code: 500,
  };
}

/** How a negotiated protocol encodes the status: JSON (v4+) or the v1 plain-text message. */
export type StatusEncoding = 'json' | 'text';

/** The bytes to write on the error stream; empty when nothing is to be written (v1 success). */
export function encodeStatus(status: Status, encoding: StatusEncoding): Buffer {
  if (encoding === 'json') return Buffer.from(JSON.stringify(status));
  return status.status === 'Success' ? Buffer.alloc(0) : Buffer.from(status.message ?? 'unknown error');
}
