// The gRPC floor process (see grpc_floor.ts): grpc-js serving berth's CRI RuntimeService and
// ImageService definitions (the same message converters berthd uses) on a unix socket, every unary
// method answering the response its parent last set for that method and filter shape over IPC
// (request_shape.ts), and nothing else: no store, no handler logic, no metrics or logs.
// argv: SOCKET_PATH. Says { ready: true } once it serves; answers { set: KEY } to each
// { key: "runtime/ListContainers?state", response } it is sent.
import './heap_flags_first';
import * as grpc from '@grpc/grpc-js';
import { imageServiceDefinition, runtimeServiceDefinition, unixTarget } from '../../internal/api/cri';
import { answerKey } from './request_shape';

export interface SetAnswer {
  key: string;
  response: unknown;
}

const socket = process.argv[2];
if (socket === undefined || process.send === undefined) {
  process.stderr.write('usage: grpc_floor_child.js SOCKET_PATH (spawned with an IPC channel)\n');
  process.exit(2);
}
const send = process.send.bind(process);
const answers = new Map<string, unknown>();

function implementation(service: string, definition: grpc.ServiceDefinition): grpc.UntypedServiceImplementation {
  const impl: grpc.UntypedServiceImplementation = {};
  for (const method of Object.keys(definition)) {
    impl[method] = ((call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const key = answerKey(service, method, call.request);
      const answer = answers.get(key);
      if (answer === undefined) callback({ code: grpc.status.FAILED_PRECONDITION, details: `the floor has no answer set for ${key}` });
      else callback(null, answer);
    }) as grpc.handleUnaryCall<unknown, unknown>;
  }
  return impl;
}

// The bench gone (its IPC channel closed): nothing is left to serve.
process.on('disconnect', () => process.exit(0));
process.on('message', (message: SetAnswer) => {
  answers.set(message.key, message.response);
  send({ set: message.key });
});
// The same limits as berthd's server (internal/cri/server/grpc_server.ts).
const server = new grpc.Server({ 'grpc.max_receive_message_length': 16 * 1024 * 1024, 'grpc.max_send_message_length': 16 * 1024 * 1024 });
server.addService(runtimeServiceDefinition(), implementation('runtime', runtimeServiceDefinition()));
server.addService(imageServiceDefinition(), implementation('image', imageServiceDefinition()));
server.bindAsync(unixTarget(socket), grpc.ServerCredentials.createInsecure(), (err) => {
  if (err) {
    process.stderr.write(`grpc floor: cannot serve on ${socket}: ${err.message}\n`);
    process.exit(1);
  }
  send({ ready: true });
});
