// The bench's options as a user sets them: the scale scenario's size from the environment (what
// `BENCH_SCALE_PODS=10 make bench` passes, since make passes no flags) or a flag, which wins.
import { DEFAULT_RESTARTS, DEFAULT_SCALE_PODS, DEFAULT_SCALE_ROUNDS, DEFAULT_STEADY_SECONDS, parseBenchArgs, type BenchOptions } from './args';

const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseBenchArgs(argv, env) as BenchOptions;

describe('bench options', () => {
  it('runs the scale scenario by default with 110 pods and a 60 s polling window', () => {
    const opts = parse([]);
    expect(opts.only).toContain('scale');
    expect([opts.scalePods, opts.steadySeconds]).toEqual([DEFAULT_SCALE_PODS, DEFAULT_STEADY_SECONDS]);
    expect([DEFAULT_SCALE_PODS, DEFAULT_STEADY_SECONDS]).toEqual([110, 60]);
  });

  it('takes a smaller run from BENCH_SCALE_PODS and BENCH_STEADY_SECONDS', () => {
    const opts = parse(['--only', 'scale'], { BENCH_SCALE_PODS: '10', BENCH_STEADY_SECONDS: '15' });
    expect(opts.only).toEqual(['scale']);
    expect([opts.scalePods, opts.steadySeconds]).toEqual([10, 15]);
  });

  it('lets --scale-pods and --steady-seconds win over the environment', () => {
    const opts = parse(['--scale-pods', '3', '--steady-seconds', '5'], { BENCH_SCALE_PODS: '10', BENCH_STEADY_SECONDS: '15' });
    expect([opts.scalePods, opts.steadySeconds]).toEqual([3, 5]);
  });

  it('restarts each kind DEFAULT_RESTARTS times unless --restarts says, apart from --rounds', () => {
    expect(parse([]).restarts).toBe(DEFAULT_RESTARTS);
    expect(parse(['--rounds', '1'])).toMatchObject({ rounds: 1, restarts: DEFAULT_RESTARTS });
    expect(parse(['--restarts', '4'])).toMatchObject({ rounds: 3, restarts: 4 });
    expect(() => parse(['--restarts', '0'])).toThrow(/--restarts/);
  });

  it('starts the scale pods twice per peer unless --scale-rounds or BENCH_SCALE_ROUNDS says', () => {
    expect(parse([]).scaleRounds).toBe(DEFAULT_SCALE_ROUNDS);
    expect(DEFAULT_SCALE_ROUNDS).toBe(2);
    expect(parse([], { BENCH_SCALE_ROUNDS: '1' }).scaleRounds).toBe(1);
    expect(parse(['--scale-rounds', '3'], { BENCH_SCALE_ROUNDS: '1' }).scaleRounds).toBe(3);
    expect(() => parse(['--scale-rounds', '0'])).toThrow(/--scale-rounds/);
  });

  it('refuses a bad count, naming where it came from', () => {
    expect(() => parse([], { BENCH_SCALE_PODS: 'ten' })).toThrow(/BENCH_SCALE_PODS/);
    expect(() => parse(['--steady-seconds', '0'])).toThrow(/--steady-seconds/);
  });
});
