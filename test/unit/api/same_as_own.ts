// The check both kept-codec tests make: every message type of a root set up from kept (or bundled)
// codecs encodes, decodes, converts and verifies as protobufjs's own generation of that type.
import * as protobuf from 'protobufjs';
import { messageTypes } from '../../../internal/api/kept_codecs';
import { sample } from './sample_message';

export const TO_OBJECT: protobuf.IConversionOptions = { longs: String, enums: String, bytes: String, defaults: true, arrays: true, objects: true, oneofs: true };

export function expectSameAsOwn(kept: protobuf.Root, own: protobuf.Root): void {
  for (const ownType of messageTypes(own)) {
    const keptType = kept.lookupType(ownType.fullName);
    const value = sample(ownType);
    const bytes = Buffer.from(ownType.encode(ownType.fromObject(value)).finish());
    expect({ type: ownType.fullName, bytes: Buffer.from(keptType.encode(keptType.fromObject(value)).finish()) }).toEqual({ type: ownType.fullName, bytes });
    expect(keptType.toObject(keptType.decode(bytes), TO_OBJECT)).toEqual(ownType.toObject(ownType.decode(bytes), TO_OBJECT));
    expect(keptType.toObject(keptType.decode(Buffer.alloc(0)), TO_OBJECT)).toEqual(ownType.toObject(ownType.decode(Buffer.alloc(0)), TO_OBJECT));
    expect(keptType.verify(value)).toEqual(ownType.verify(value));
    const bad = { [ownType.fieldsArray[0]?.name ?? 'x']: Symbol('bad') };
    expect(keptType.verify(bad)).toEqual(ownType.verify(bad));
  }
}
