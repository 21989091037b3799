import type { SamplePlan } from '../harness/measure.js';

/** Sizes and sample counts of one `npm run bench`. */
export interface BenchConfig {
  w1Sizes: readonly number[];
  w1Plan(n: number): SamplePlan;
  w1PeerPlan(n: number): SamplePlan;
  w2Rounds: readonly number[];
  w2Plan: SamplePlan;
  w2PeerPlan: SamplePlan;
  w3: { streams: number; chunks: number };
  w3Plan: SamplePlan;
  w4: { calls: number };
  w4Plan: SamplePlan;
  w5: { n: number; rounds: number };
  w5Plan: SamplePlan;
}

/**
 * The full run (~5 minutes on 2 cores). The peers are superlinear at N = 100,000
 * (tens of seconds a run), so they get one measured run there, after the N = 10,000
 * runs warmed them up.
 */
export const fullConfig: BenchConfig = {
  w1Sizes: [10_000, 100_000],
  w1Plan: (n) => (n <= 10_000 ? { warmup: 60, samples: 9 } : { warmup: 20, samples: 9 }),
  w1PeerPlan: (n) => (n <= 10_000 ? { warmup: 1, samples: 3 } : { warmup: 0, samples: 1 }),
  w2Rounds: [20, 100],
  // The tool loop has many functions for the JIT to optimize: short warm-ups measured 2×.
  w2Plan: { warmup: 400, samples: 9 },
  w2PeerPlan: { warmup: 1, samples: 4 },
  w3: { streams: 1000, chunks: 200 },
  w3Plan: { warmup: 0, samples: 2 },
  w4: { calls: 1000 },
  // 1,000 calls per run; the first-chunk path settles after 3,000–5,000 calls at load.
  w4Plan: { warmup: 6, samples: 3 },
  w5: { n: 10_000, rounds: 20 },
  w5Plan: { warmup: 60, samples: 9 },
};

/** A smoke run (seconds): small sizes, few samples; numbers are not meaningful. */
export const quickConfig: BenchConfig = {
  w1Sizes: [1_000],
  w1Plan: () => ({ warmup: 1, samples: 3 }),
  w1PeerPlan: () => ({ warmup: 0, samples: 1 }),
  w2Rounds: [5],
  w2Plan: { warmup: 1, samples: 3 },
  w2PeerPlan: { warmup: 0, samples: 1 },
  w3: { streams: 50, chunks: 20 },
  w3Plan: { warmup: 0, samples: 1 },
  w4: { calls: 20 },
  w4Plan: { warmup: 0, samples: 1 },
  w5: { n: 1_000, rounds: 5 },
  w5Plan: { warmup: 1, samples: 3 },
};
