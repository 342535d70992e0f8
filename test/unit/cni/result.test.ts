import { parseResult } from '../../../internal/cni/result';

const result = (ip: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  cniVersion: '1.0.0',
  interfaces: [{ name: 'eth0', sandbox: '/var/run/netns/x' }],
  ips: [{ interface: 0, ...ip }],
  ...extra,
});

describe('parseResult', () => {
  it('takes IPv4 and IPv6 addresses with their prefix lengths, gateways and routes', () => {
    const parsed = parseResult(
      result({ address: '10.1.2.3/24', gateway: '10.1.2.1' }, { routes: [{ dst: '0.0.0.0/0', gw: '10.1.2.1' }, { dst: 'fd00::/8' }] }),
      'bridge',
    );
    expect(parsed.ips).toEqual([{ address: '10.1.2.3/24', gateway: '10.1.2.1', interface: 0 }]);
    expect(parsed.routes).toEqual([{ dst: '0.0.0.0/0', gw: '10.1.2.1' }, { dst: 'fd00::/8' }]);
    expect(parseResult(result({ address: 'fd00::5/64' }), 'bridge').ips[0]?.address).toBe('fd00::5/64');
  });

  // libcni decodes addresses with net.ParseCIDR: a result it cannot decode fails the ADD under containerd.
  it.each([
    ['an address that is no IP', { address: '999.1.2.3/24' }, /address "999\.1\.2\.3\/24" is not an IP address with a prefix length/],
    ['shell text as an address', { address: 'hello world; rm -rf /' }, /address "hello world; rm -rf \/" is not/],
    ['no prefix length', { address: '10.1.2.3' }, /address "10\.1\.2\.3" is not/],
    ['a prefix too long for IPv4', { address: '10.1.2.3/33' }, /is not an IP address with a prefix length/],
    ['a gateway that is no IP', { address: '10.1.2.3/24', gateway: 'router' }, /gateway "router" is not an IP address/],
  ])('refuses %s', (_what, ip, message) => {
    expect(() => parseResult(result(ip), 'bridge')).toThrow(message);
  });

  it('refuses a route destination that is not a CIDR, and checks legacy results the same way', () => {
    expect(() => parseResult(result({ address: '10.1.2.3/24' }, { routes: [{ dst: 'default' }] }), 'bridge')).toThrow(/route destination "default"/);
    expect(parseResult({ cniVersion: '0.2.0', ip4: { ip: '10.1.2.3/24', gateway: '10.1.2.1' } }, 'old').ips).toEqual([{ address: '10.1.2.3/24', gateway: '10.1.2.1' }]);
    expect(() => parseResult({ cniVersion: '0.2.0', ip4: { ip: '10.1.2.x/24' } }, 'old')).toThrow(/CNI plugin "old" result: address/);
  });
});
