// A request's filter shape names the filter fields it sets, whether the request is as the bench
// builds it or as grpc-js decodes it with every unset field filled in with its default.
import { answerKey, requestShape } from './request_shape';

describe('requestShape', () => {
  it('is empty without a filter or with one that sets nothing', () => {
    expect(requestShape({})).toBe('');
    expect(requestShape({ filter: null })).toBe('');
    expect(requestShape({ pod_sandbox_id: 'p' })).toBe('');
    expect(requestShape({ filter: { id: '', state: null, pod_sandbox_id: '', label_selector: {} } })).toBe('');
    expect(requestShape({ filter: { ids: [] } })).toBe('');
  });

  it('names the set fields, sorted, the same for a built and a decoded request', () => {
    const uid = { 'io.kubernetes.pod.uid': 'u' };
    expect(requestShape({ filter: { label_selector: uid } })).toBe('label_selector');
    expect(requestShape({ filter: { id: '', state: null, pod_sandbox_id: '', label_selector: uid } })).toBe('label_selector');
    expect(requestShape({ filter: { state: { state: 'CONTAINER_CREATED' }, pod_sandbox_id: 'p' } })).toBe('pod_sandbox_id,state');
    expect(requestShape({ filter: { ids: ['a'] } })).toBe('ids');
  });

  it('keys an answer by service and method, and by the shape when there is one', () => {
    expect(answerKey('image', 'ImageFsInfo', {})).toBe('image/ImageFsInfo');
    expect(answerKey('runtime', 'ListContainers', { filter: { state: { state: 'CONTAINER_RUNNING' } } })).toBe('runtime/ListContainers?state');
  });
});
