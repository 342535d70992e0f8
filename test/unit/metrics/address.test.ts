// `[metrics] address` forms, as containerd takes them: host:port, [ipv6]:port, :port (every interface).
import { parseListenAddress } from '../../../internal/metrics/address';
import { berthConfigSchema } from '../../../internal/config/schema';

describe('metrics listen address', () => {
  it.each([
    ['127.0.0.1:1338', { host: '127.0.0.1', port: 1338 }],
    ['[::1]:9090', { host: '::1', port: 9090 }],
    [':1338', { host: '', port: 1338 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
  ])('reads %s', (text, want) => {
    expect(parseListenAddress(text)).toEqual(want);
  });

  it.each(['localhost', '127.0.0.1', '::1:80', '127.0.0.1:65536', '127.0.0.1:-1', 'a b:80', '[::1]'])('refuses %s', (text) => {
    expect(parseListenAddress(text)).toBeUndefined();
  });

  it('is off by default and refused in the config when malformed', () => {
    expect(berthConfigSchema.parse({}).metrics).toEqual({ address: '' });
    expect(berthConfigSchema.safeParse({ metrics: { address: '127.0.0.1:1338' } }).success).toBe(true);
    expect(berthConfigSchema.safeParse({ metrics: { address: '127.0.0.1' } }).success).toBe(false);
    expect(berthConfigSchema.safeParse({ metrics: { port: 1 } }).success).toBe(false);
  });
});
