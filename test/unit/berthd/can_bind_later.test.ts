// Which streaming listeners berthd may bind on first use instead of at start: only those a host
// always has (any port on IPv4 loopback or every IPv4 address); a chosen port or address could be
// taken or missing, and that must stop the start, as it does containerd's.
import { canBindLater } from '../../../cmd/berthd/runtime_deps';

describe('canBindLater', () => {
  it.each([
    ['127.0.0.1', '0'],
    ['127.1.2.3', '0'],
    ['0.0.0.0', '0'],
  ])('%s:%s: on first use', (address, port) => {
    expect(canBindLater(address, port)).toBe(true);
  });

  it.each([
    ['127.0.0.1', '10010'], // a chosen port may be taken
    ['10.1.2.3', '0'], // an address the host may lack
    ['::1', '0'], // IPv6 may be off
    ['::', '0'],
    ['localhost', '0'], // resolved at listen time
    ['127.example.com', '0'],
  ])('%s:%s: at start', (address, port) => {
    expect(canBindLater(address, port)).toBe(false);
  });
});
