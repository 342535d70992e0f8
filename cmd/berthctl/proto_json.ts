// CRI messages as crictl prints them with -o json|yaml: the protobuf JSON mapping (Go's jsonpb with
// defaults emitted): lowerCamelCase field names, 64-bit integers as strings, enums by name, bytes in
// base64, unset messages as null. berthctl's responses arrive with the .proto's own field names
// (pod_sandbox_id); scripts written against crictl read podSandboxId.
import * as protobuf from 'protobufjs';
import { CRI_PROTO_FILES } from '../../internal/api/cri';
import { loadProtoRoot } from '../../internal/api/proto_root';

let root: protobuf.Root | undefined;

function criType(fullName: string): protobuf.Type {
  root ??= loadProtoRoot('cri', CRI_PROTO_FILES);
  return root.lookupType(fullName);
}

function scalar(field: protobuf.Field, value: unknown): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (field.resolvedType instanceof protobuf.Type) return message(field.resolvedType, value as Record<string, unknown>);
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value;
}

function message(type: protobuf.Type, value: Record<string, unknown> | null): Record<string, unknown> | null {
  if (value === null) return null;
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    const name = (field.options?.json_name as string | undefined) ?? protobuf.util.camelCase(field.name);
    const v = value[field.name];
    if (field.map) {
      const entries = Object.entries((v ?? {}) as Record<string, unknown>).map(([k, item]) => [k, scalar(field, item)]);
      out[name] = Object.fromEntries(entries);
    } else if (field.repeated) {
      out[name] = ((v ?? []) as unknown[]).map((item) => scalar(field, item));
    } else {
      out[name] = scalar(field, v);
    }
  }
  return out;
}

/** `value` (a decoded `runtime.v1.<typeName>`) in the protobuf JSON mapping. */
export function criJson(typeName: string, value: object | null): Record<string, unknown> | null {
  return message(criType(`runtime.v1.${typeName}`), value as Record<string, unknown> | null);
}

/**
 * crictl's inspect/inspectp/info shape: {"status": <status>, <info key>: <info value parsed as JSON
 * when it is JSON, else the string>...}, keys sorted.
 */
export function statusWithInfo(status: unknown, info: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { status };
  for (const key of Object.keys(info).sort()) {
    try {
      out[key] = JSON.parse(info[key]!);
    } catch {
      out[key] = info[key];
    }
  }
  return out;
}
