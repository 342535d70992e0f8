// A frozen answer is encoded once per message type and its bytes reused while the object lives; an
// unfrozen one is encoded at every call, so a handler that changes its object is always seen.
import type * as grpc from '@grpc/grpc-js';
import { imageServiceDefinition, v1alpha2ServerDefinition } from '../../../internal/api/cri';

const imageFsInfo = (definition: grpc.ServiceDefinition) => definition.ImageFsInfo as grpc.MethodDefinition<unknown, unknown>;

const usage = (used: string) => ({
  timestamp: '1764620000000000000',
  fs_id: { mountpoint: '/var/lib/berth/overlayfs' },
  used_bytes: { value: used },
  inodes_used: { value: '7' },
});

describe('response encoding of frozen messages', () => {
  it('keeps the bytes of a frozen answer, per package, and encodes an unfrozen one again', () => {
    const v1 = imageFsInfo(imageServiceDefinition() as unknown as grpc.ServiceDefinition);
    const v1alpha2 = imageFsInfo(v1alpha2ServerDefinition('ImageService'));
    const frozen = Object.freeze({ image_filesystems: [usage('100')], container_filesystems: [usage('100')] });
    const first = v1.responseSerialize(frozen);
    expect(v1.responseSerialize(frozen)).toBe(first); // the kept bytes, not a new encoding
    expect(v1.responseDeserialize(first)).toMatchObject({ image_filesystems: [{ used_bytes: { value: '100' } }] });
    const old = v1alpha2.responseSerialize(frozen);
    expect(old).not.toBe(first);
    expect(v1alpha2.responseDeserialize(old)).toMatchObject({ image_filesystems: [{ used_bytes: { value: '100' } }] });

    const changing = { image_filesystems: [usage('100')], container_filesystems: [] as unknown[] };
    const before = v1.responseSerialize(changing);
    changing.image_filesystems[0]!.used_bytes.value = '200';
    const after = v1.responseSerialize(changing);
    expect(after).not.toEqual(before);
    expect(v1.responseDeserialize(after)).toMatchObject({ image_filesystems: [{ used_bytes: { value: '200' } }] });
  });
});
