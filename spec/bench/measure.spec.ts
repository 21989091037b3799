import type * as Measure from '../../bench/harness/measure';
import type { BenchAdapter } from '../../bench/harness/types';

// Not a benchmark: which collections the harness asks V8 for around timed batches. A forced
// full GC before a timed batch deoptimizes the code that embeds the maps of per-call objects
// (docs/performance.md, "Issues 28/32: timing warm code, this pass"), so timed rows must start
// with a minor GC only; W3 (memory) keeps its full GCs. `gc` is V8's, exposed by
// `--expose-gc` in the bench; here a recording stand-in, installed before the harness loads.

type GcCall = { type: 'major' | 'minor'; execution: 'sync' } | undefined;

/** The harness loaded with a recording `gc` and `BENCH_RESET` as given. */
function loadHarness(reset: string | undefined): {
  measure: typeof Measure;
  calls: GcCall[];
} {
  const calls: GcCall[] = [];
  const global = globalThis as { gc?: (options?: GcCall) => void };
  const saved = { gc: global.gc, reset: process.env.BENCH_RESET };
  global.gc = (options) => calls.push(options);
  if (reset === undefined) delete process.env.BENCH_RESET;
  else process.env.BENCH_RESET = reset;
  let measure!: typeof Measure;
  try {
    jest.isolateModules(() => {
      measure = jest.requireActual<typeof Measure>('../../bench/harness/measure');
    });
  } finally {
    if (saved.gc === undefined) delete global.gc;
    else global.gc = saved.gc;
    if (saved.reset === undefined) delete process.env.BENCH_RESET;
    else process.env.BENCH_RESET = saved.reset;
  }
  // The harness captured the recording gc at load; restoring the global does not undo that.
  return { measure, calls };
}

const adapter = (label: string): BenchAdapter => {
  const fail = () => Promise.reject(new Error('unused'));
  return {
    framework: 'rx-advisors',
    passThroughLabel: label,
    toolLoopLabel: label,
    stream: fail,
    toolLoop: fail,
    parked: fail,
    firstChunk: fail,
  };
};

async function timeTwoCases(measure: typeof Measure) {
  const cases = [adapter('a'), adapter('b')];
  return measure.interleaveTimed(
    cases,
    () => ({ warmup: 1, samples: 2 }),
    () => Promise.resolve('text'),
    () => undefined,
    1,
  );
}

describe('bench harness: what a timed batch starts with', () => {
  it('starts every timed batch with a minor GC, never a forced full one', async () => {
    const { measure, calls } = loadHarness(undefined);
    const samples = await timeTwoCases(measure);
    expect([...samples.values()].map((values) => values.length)).toEqual([2, 2]);
    expect(measure.timedReset).toBe('scavenge');
    // Two cases × two samples, one minor GC each; nothing else.
    expect(calls).toEqual(Array(4).fill({ type: 'minor', execution: 'sync' }));
  });

  it('keeps the old start (a forced full GC, twice) under BENCH_RESET=full-gc', async () => {
    const { measure, calls } = loadHarness('full-gc');
    await timeTwoCases(measure);
    expect(measure.timedReset).toBe('full-gc');
    expect(calls).toEqual(Array(8).fill(undefined));
  });

  it('still forces full GCs where memory is read (collectGarbage, W3)', () => {
    const { measure, calls } = loadHarness(undefined);
    measure.collectGarbage();
    expect(calls).toEqual([undefined, undefined]);
  });
});
