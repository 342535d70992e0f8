import { kindOf } from '../../../internal/errdefs/errors';
import { containerArgs, mergeEnv, userString } from '../../../internal/cri/opts/process';

describe('containerArgs (kubelet command/args over image Entrypoint/Cmd)', () => {
  const image = { Entrypoint: ['/entry'], Cmd: ['default-arg'] };
  it.each([
    ['nothing given: Entrypoint + Cmd', [], [], image, ['/entry', 'default-arg']],
    ['args replace Cmd', [], ['a', 'b'], image, ['/entry', 'a', 'b']],
    ['command replaces Entrypoint and drops Cmd', ['/bin/sh'], [], image, ['/bin/sh']],
    ['command + args', ['/bin/sh'], ['-c', 'true'], image, ['/bin/sh', '-c', 'true']],
    ['Entrypoint [""] means none', [], [], { Entrypoint: [''], Cmd: ['/bin/true'] }, ['/bin/true']],
    ['only Cmd', [], [], { Cmd: ['/bin/true', 'x'] }, ['/bin/true', 'x']],
    ['only Entrypoint', [], [], { Entrypoint: ['/e'] }, ['/e']],
    ['args without any image command', [], ['/bin/echo', 'hi'], {}, ['/bin/echo', 'hi']],
  ])('%s', (_name, command, args, img, want) => {
    expect(containerArgs({ command, args }, img, 'app')).toEqual(want);
  });

  it('refuses when nothing is left to run, naming the container', () => {
    let err: unknown;
    try {
      containerArgs({ command: [], args: [] }, { Entrypoint: [''] }, 'app');
    } catch (e) {
      err = e;
    }
    expect(kindOf(err)).toBe('InvalidArgument');
    expect((err as Error).message).toMatch(/container "app": no command specified/);
  });
});

describe('mergeEnv', () => {
  it.each([
    ['replaces in place', ['A=1', 'B=2'], ['A=3'], ['A=3', 'B=2']],
    ['appends new keys', ['A=1'], ['B=2'], ['A=1', 'B=2']],
    ['later overrides win', ['A=1'], ['B=image', 'B=request'], ['A=1', 'B=request']],
    ['bare key unsets', ['A=1', 'B=2'], ['A'], ['B=2']],
    ['values may contain =', [], ['X=a=b'], ['X=a=b']],
    ['empty value is kept', ['A=1'], ['A='], ['A=']],
  ])('%s', (_name, base, overrides, want) => {
    expect(mergeEnv(base, overrides)).toEqual(want);
  });
});

describe('userString (CRI user fields)', () => {
  const v = (value: string) => ({ value });
  it.each([
    ['', null, null, ''],
    ['alice', null, null, 'alice'],
    ['alice', v('1000'), null, 'alice'],
    ['alice', v('1000'), v('50'), 'alice:50'],
    ['alice', null, v('50'), 'alice:50'],
    ['', v('1000'), null, '1000'],
    ['', v('0'), null, '0'],
    ['', v('1000'), v('50'), '1000:50'],
  ])('username=%j uid=%j gid=%j -> %j', (username, uid, gid, want) => {
    expect(userString(username, uid, gid, 'sc')).toBe(want);
  });

  it('a group without a user is an InvalidArgument', () => {
    expect(() => userString('', null, v('5'), 'sc')).toThrow(/sc.run_as_group 5 is specified without a user/);
  });
});
