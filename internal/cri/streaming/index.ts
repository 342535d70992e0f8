// The streaming layer's public surface, for the CRI server: construct a StreamingServer with a
// StreamingRuntime, answer Exec/Attach/PortForward RPCs with getExec/getAttach/getPortForward.
export { StreamingServer, type StreamingServerOptions } from './server';
export {
  portForwardInNetns,
  type AttachOptions,
  type ExecOptions,
  type PortForwardOptions,
  type StreamingRuntime,
  type TerminalSize,
} from './runtime';
