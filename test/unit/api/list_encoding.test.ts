// List answers whose items are frozen are encoded item by item, each kept while its object lives:
// the bytes are exactly those of encoding the whole message, frozen or not, in v1 and v1alpha2;
// a kept item is not encoded again; what is not a list answer gets no list encoder.
import { join } from 'node:path';
import * as protobuf from 'protobufjs';
import { listEncoder } from '../../../internal/api/list_encoding';

const API = join(__dirname, '../../../api');

function loadRoot(file: string): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (target.startsWith('/') ? target : join(API, target));
  root.loadSync(join(API, file), { keepCase: true });
  root.resolveAll();
  return root;
}

const v1 = loadRoot('runtime/v1/api.proto');
const v1alpha2 = loadRoot('runtime/v1alpha2/api.proto');

const container = (k: number, state = 'CONTAINER_RUNNING') => ({
  id: `c${k}`,
  pod_sandbox_id: 'pod',
  metadata: { name: `app-${k}`, attempt: k },
  image: { image: 'busybox', annotations: { a: 'b' } },
  image_ref: 'sha256:ab',
  image_id: 'sha256:ab',
  state,
  created_at: '1764620000000000000',
  labels: { 'io.kubernetes.pod.uid': 'u', k: String(k) },
  annotations: { 'io.kubernetes.container.hash': '5d1f3c2a' },
});

const wholeEncoding = (type: protobuf.Type, value: Record<string, unknown>) => Buffer.from(type.encode(type.fromObject(value)).finish());

describe('listEncoder', () => {
  for (const [pkg, root] of [['runtime.v1', v1], ['runtime.v1alpha2', v1alpha2]] as const) {
    it(`gives the whole message's bytes for ${pkg} lists, frozen items or not`, () => {
      const containers = root.lookupType(`${pkg}.ListContainersResponse`);
      const encode = listEncoder(containers)!;
      const answers = [
        { containers: [container(1), container(2)] },
        { containers: [Object.freeze(container(1)), container(2), Object.freeze(container(3, 'CONTAINER_EXITED'))] },
        { containers: [] },
        {},
      ];
      for (const answer of answers) expect(encode(answer)).toEqual(wholeEncoding(containers, answer));

      const pods = root.lookupType(`${pkg}.ListPodSandboxResponse`);
      const pod = Object.freeze({ id: 'p', metadata: { name: 'n', uid: 'u', namespace: 'd', attempt: 1 }, state: 'SANDBOX_NOTREADY', created_at: '5', labels: { x: 'y' } });
      expect(listEncoder(pods)!({ items: [pod, pod] })).toEqual(wholeEncoding(pods, { items: [pod, pod] }));
    });
  }

  it('encodes a frozen item once, and an unfrozen one at every call', () => {
    const type = v1.lookupType('runtime.v1.ListContainersResponse');
    const item = v1.lookupType('runtime.v1.Container');
    const encode = listEncoder(type)!;
    const kept = Object.freeze(container(1));
    const fresh = container(2);
    const spy = jest.spyOn(item, 'encode');
    try {
      const first = encode({ containers: [kept, fresh] });
      const second = encode({ containers: [kept, fresh] });
      expect(second).toEqual(first);
      const encoded = spy.mock.calls.map(([message]) => (message as { id: string }).id);
      expect(encoded).toEqual(['c1', 'c2', 'c2']);
    } finally {
      spy.mockRestore();
    }
  });

  it('leaves other messages to the whole-message encoder', () => {
    for (const name of ['ContainerStatusResponse', 'ListContainersRequest', 'VersionResponse']) {
      expect([name, listEncoder(v1.lookupType(`runtime.v1.${name}`))]).toEqual([name, undefined]);
    }
  });
});
