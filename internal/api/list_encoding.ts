// Encoding of list answers whose items do not change between calls. The kubelet asks for every pod
// and container each second; on a full node ListContainers is 220 items, and encoding them again
// each time (protobufjs fromObject + encode, ~800 bytes each) was most of the call. A handler that
// answers with frozen item objects, the same object for as long as the item's view is unchanged,
// lets each item be encoded once per message type (v1 and v1alpha2 apart). The bytes are those of
// encoding the whole message: a repeated message field is each item's tag, length and encoding.
import * as protobuf from 'protobufjs';

const WIRE_LENGTH_DELIMITED = 2;

/**
 * The encoder of `type` when it is a list answer (its only field a repeated message, as
 * ListContainersResponse and ListPodSandboxResponse): frozen items are encoded once and kept while
 * the object lives. Undefined for any other type.
 */
export function listEncoder(type: protobuf.Type): ((value: Record<string, unknown>) => Buffer) | undefined {
  const fields = type.fieldsArray;
  if (fields.length !== 1) return undefined;
  const [field] = fields as [protobuf.Field];
  field.resolve();
  const item = field.resolvedType;
  if (!field.repeated || field.map || item === null || !('fieldsArray' in item)) return undefined;
  const itemType = item;
  const tag = (field.id << 3) | WIRE_LENGTH_DELIMITED;
  const kept = new WeakMap<object, Buffer>();
  // The field's tag, then the item length-delimited, as protobufjs's own encoder writes it.
  const encodeItem = (value: Record<string, unknown>): Buffer => {
    const writer = protobuf.Writer.create().uint32(tag).fork();
    return Buffer.from(itemType.encode(itemType.fromObject(value), writer).ldelim().finish());
  };
  // fromObject, as a whole-message encode, takes the field by its name.
  const name = field.name;
  return (value) => {
    const items = value[name];
    if (!Array.isArray(items)) return Buffer.from(type.encode(type.fromObject(value)).finish());
    const parts = items.map((entry: Record<string, unknown>) => {
      if (!Object.isFrozen(entry)) return encodeItem(entry);
      let bytes = kept.get(entry);
      if (bytes === undefined) {
        bytes = encodeItem(entry);
        kept.set(entry, bytes);
      }
      return bytes;
    });
    return Buffer.concat(parts);
  };
}
