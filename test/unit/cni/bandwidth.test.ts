// The bandwidth capability from the kubernetes.io/{ingress,egress}-bandwidth annotations: Kubernetes
// quantities read as apimachinery reads them, in containerd's 1k..1P range, burst MaxUint32.
import { podBandwidth } from '../../../internal/cni/bandwidth';
import { quantityValue } from '../../../internal/cni/quantity';
import { kindOf } from '../../../internal/errdefs/errors';
import { thrownBy } from '../../harness/thrown';

describe('quantityValue (Quantity.Value())', () => {
  it.each([
    ['10M', 10_000_000n],
    ['1k', 1_000n],
    ['1.1k', 1_100n], // exact: a float product would round up to 1101
    ['1.5Mi', 1_572_864n],
    ['1Ki', 1_024n],
    ['1Ei', 1n << 60n],
    ['2e6', 2_000_000n],
    ['2E6', 2_000_000n],
    ['1E', 1_000_000_000_000_000_000n], // E alone is exa
    ['.5k', 500n],
    ['5.', 5n],
    ['+3G', 3_000_000_000n],
    ['100m', 1n], // 0.1, rounded up
    ['1500m', 2n],
    ['1e-50', 1n],
    ['0', 0n],
    ['-1.5k', -1_500n],
    ['0.0000000000000000000000000000000000000000000000001e60', 100_000_000_000n],
  ])('%s = %s', (text, value) => {
    expect(quantityValue(text)).toBe(value);
  });

  it.each(['', '1K', '1 k', ' 1k', '1.0.0', 'k', '1kb', '1e', '1Ki2', '0x10', '1'.repeat(65)])('refuses %j', (text) => {
    expect(kindOf(thrownBy(() => quantityValue(text)))).toBe('InvalidArgument');
  });
});

describe('podBandwidth', () => {
  const MAX_UINT32 = 4_294_967_295;

  it('is undefined without the annotations', () => {
    expect(podBandwidth({ 'other/annotation': '10M' })).toBeUndefined();
  });

  it('passes ingress and egress rates in bits/s with containerd burst', () => {
    expect(podBandwidth({ 'kubernetes.io/ingress-bandwidth': '10M', 'kubernetes.io/egress-bandwidth': '1.5Mi' })).toEqual({
      ingressRate: 10_000_000,
      ingressBurst: MAX_UINT32,
      egressRate: 1_572_864,
      egressBurst: MAX_UINT32,
    });
    expect(podBandwidth({ 'kubernetes.io/egress-bandwidth': '1P' })).toEqual({ egressRate: 1e15, egressBurst: MAX_UINT32 });
  });

  it.each([
    ['kubernetes.io/ingress-bandwidth', '999', /ingress-bandwidth=999: resource is unreasonably small \(< 1kbit\)/],
    ['kubernetes.io/egress-bandwidth', '1001T', /egress-bandwidth=1001T: resource is unreasonably large \(> 1Pbit\)/],
    ['kubernetes.io/egress-bandwidth', '-10M', /unreasonably small/],
    ['kubernetes.io/ingress-bandwidth', '10 Mbit', /ingress-bandwidth: quantity "10 Mbit" is not a Kubernetes quantity/],
  ])('refuses %s=%s', (key, value, message) => {
    const err = thrownBy(() => podBandwidth({ [key]: value }));
    expect(kindOf(err)).toBe('InvalidArgument');
    expect((err as Error).message).toMatch(message);
  });
});
