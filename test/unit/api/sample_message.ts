// A value for every field of a message type, for round trips through its codecs.
import * as protobuf from 'protobufjs';

function scalar(type: string): unknown {
  switch (type) {
    case 'string':
      return 'x';
    case 'bytes':
      return Buffer.from('ab');
    case 'bool':
      return true;
    case 'double':
    case 'float':
      return 1.5;
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return '9007199254740993';
    default:
      return 7;
  }
}

/** A value for every field of `type`, nested messages to depth 3, so each generated branch runs. */
export function sample(type: protobuf.Type, depth = 0): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    field.resolve();
    const resolved = field.resolvedType;
    const one = (): unknown => {
      if (resolved instanceof protobuf.Enum) return Object.keys(resolved.values).at(-1);
      if (resolved instanceof protobuf.Type) return depth < 3 ? sample(resolved, depth + 1) : {};
      return scalar(field.type);
    };
    if (field.map) value[field.name] = { [String(scalar((field as unknown as protobuf.MapField).keyType))]: one() };
    else if (field.repeated) value[field.name] = [one(), one()];
    else value[field.name] = one();
  }
  return value;
}
