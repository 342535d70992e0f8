import { familiarString, normalizeReference, parseNormalizedNamed, parseReference } from '../../../internal/images/reference';
import { kindOf } from '../../../internal/errdefs/errors';

const D = 'sha256:' + 'a'.repeat(64);

describe('image references', () => {
  it.each([
    ['busybox', 'docker.io/library/busybox:latest'],
    ['busybox:1.36', 'docker.io/library/busybox:1.36'],
    ['library/busybox', 'docker.io/library/busybox:latest'],
    ['user/x', 'docker.io/user/x:latest'],
    ['docker.io/busybox', 'docker.io/library/busybox:latest'],
    ['index.docker.io/user/x:v1', 'docker.io/user/x:v1'],
    ['localhost/x', 'localhost/x:latest'],
    ['localhost:5000/x', 'localhost:5000/x:latest'],
    ['localhost:65535/x', 'localhost:65535/x:latest'],
    ['localhost:5000/a/b/c:t', 'localhost:5000/a/b/c:t'],
    ['127.0.0.1:5000/x:1', '127.0.0.1:5000/x:1'],
    ['registry.k8s.io/pause:3.9', 'registry.k8s.io/pause:3.9'],
    ['Registry.Example.com/x', 'Registry.Example.com/x:latest'],
    [`busybox@${D}`, `docker.io/library/busybox@${D}`],
    [`busybox:1.36@${D}`, `docker.io/library/busybox:1.36@${D}`],
    [`localhost:5000/x@${D}`, `localhost:5000/x@${D}`],
    ['a/b__c/d-e.f_g', 'docker.io/a/b__c/d-e.f_g:latest'],
  ])('%s -> %s', (input, want) => {
    expect(normalizeReference(input)).toBe(want);
  });

  it.each([
    [''],
    ['Busybox'],
    ['user/X'],
    ['busybox:'],
    ['busybox:-bad'],
    ['busybox@sha256:abc'],
    ['busybox@md5:' + 'a'.repeat(32)],
    ['a'.repeat(64)],
    ['busybox//x'],
    ['-x/y'],
    ['x/y_'],
    ['localhost:5000/'],
    ['bad host:5000/x'],
    // A port that is none: 0 dialled port 80, a huge one failed later as UNKNOWN "Invalid URL".
    ['127.0.0.1:0/x'],
    ['localhost:65536/x'],
    ['127.0.0.1:99999999999999999999/good/busybox:latest'],
    ['x/' + 'a'.repeat(260)],
  ])('%j is InvalidArgument naming the string', (input) => {
    let err: unknown;
    try {
      parseReference(input);
    } catch (e) {
      err = e;
    }
    expect(kindOf(err)).toBe('InvalidArgument');
    expect((err as Error).message).toContain(JSON.stringify(input));
  });

  it('parses into domain, path, tag, digest', () => {
    expect(parseReference(`localhost:5000/a/b:t@${D}`)).toEqual({ domain: 'localhost:5000', path: 'a/b', tag: 't', digest: D });
    expect(parseReference(`busybox@${D}`)).toEqual({ domain: 'docker.io', path: 'library/busybox', digest: D });
    expect(parseNormalizedNamed('busybox')).toEqual({ domain: 'docker.io', path: 'library/busybox' });
  });

  it('has familiar forms', () => {
    expect(familiarString(parseReference('docker.io/library/busybox:latest'))).toBe('busybox:latest');
    expect(familiarString(parseReference('user/x:1'))).toBe('user/x:1');
    expect(familiarString(parseReference('localhost:5000/x'))).toBe('localhost:5000/x:latest');
  });
});
