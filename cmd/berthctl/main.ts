// berthctl: a small client for berthd. It always goes through the daemon's socket (never opens
// the metadata database itself), so it cannot corrupt or race a running daemon's state.
import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { connectDaemon, type DaemonClient } from './client';

const DEFAULT_ADDRESS = '/run/berth/berth.sock';

const USAGE = `usage: berthctl [--address SOCK] COMMAND

commands:
  version                        the runtime's name and versions (CRI Version)
  status                         runtime and network conditions (CRI Status, verbose), as JSON
  images import FILE [--name N]  import an OCI or docker image archive into berthd

  --address SOCK   berthd's socket (default ${DEFAULT_ADDRESS})
  -h, --help       this text
`;

// A call that cannot reach the daemon fails fast instead of hanging.
const deadline = (seconds: number) => ({ deadline: Date.now() + seconds * 1000 });

async function version(c: DaemonClient): Promise<void> {
  const v = await c.runtime.Version({}, deadline(10));
  process.stdout.write(
    `Version:  ${v.version}\nRuntimeName:  ${v.runtime_name}\nRuntimeVersion:  ${v.runtime_version}\nRuntimeApiVersion:  ${v.runtime_api_version}\n`,
  );
}

async function status(c: DaemonClient): Promise<void> {
  const s = await c.runtime.Status({ verbose: true }, deadline(10));
  const info = Object.fromEntries(Object.entries(s.info).map(([k, v]) => [k, parseJsonOr(v)]));
  process.stdout.write(JSON.stringify({ status: s.status, runtime_handlers: s.runtime_handlers, info }, null, 2) + '\n');
}

async function importImage(c: DaemonClient, file: string, name: string): Promise<void> {
  // The daemon opens the file: give it a path that means the same thing from its working directory.
  const res = await c.admin.ImportImage({ path: resolve(file), name }, deadline(600));
  for (const image of res.images) process.stdout.write(`${image.name}\t${image.id}\n`);
}

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isServiceError(err: unknown): err is ServiceError {
  return err instanceof Error && typeof (err as Partial<ServiceError>).code === 'number';
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      address: { type: 'string', default: DEFAULT_ADDRESS },
      name: { type: 'string', default: '' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const [command, ...rest] = positionals;
  let run: ((c: DaemonClient) => Promise<void>) | undefined;
  if (command === 'version' && rest.length === 0) run = version;
  else if (command === 'status' && rest.length === 0) run = status;
  else if (command === 'images' && rest[0] === 'import' && rest.length === 2) {
    const file = rest[1]!;
    run = (c) => importImage(c, file, values.name);
  }
  if (run === undefined) {
    process.stderr.write(USAGE);
    return 2;
  }
  const client = connectDaemon(resolve(values.address));
  try {
    await run(client);
    return 0;
  } catch (err) {
    const message = isServiceError(err) ? `${err.details} (${codeName(err.code)})` : String(err);
    process.stderr.write(`berthctl: ${command}: ${message}\n`);
    return 1;
  } finally {
    client.close();
  }
}

function codeName(code: number): string {
  return GrpcStatus[code] ?? String(code);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`berthctl: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
