import { describe, expect, it } from '@jest/globals';
import { compareRows, compareTable, type Round } from '../../bench/harness/compare-rows';
import type { BenchResult } from '../../bench/harness/types';
import { w7Options } from '../../bench/workloads/w7-sse-server';

function row(median: number, kb = 1): BenchResult {
  return {
    workload: 'W6',
    params: { kb },
    framework: 'rx-advisors',
    metric: 'us-per-delta',
    median,
    p25: median,
    p75: median,
  };
}

function rounds(pairs: readonly [number, number][]): Round[] {
  return pairs.map(([base, head]) => ({ base: [row(base)], head: [row(head)] }));
}

describe('bench/compare.ts rows (head ÷ base per round)', () => {
  it('pairs rows by key within each round and takes the median ratio', () => {
    const [compared] = compareRows(
      rounds([
        [1, 1.05],
        [2, 1.9],
        [1, 1],
      ]),
    );
    expect(compared.ratios).toEqual([1.05, 0.95, 1]);
    expect(compared.verdict).toBe('within');
    expect(compared.base).toBe(1);
  });

  it('says over only when the median is past 10 % and every round agrees', () => {
    expect(
      compareRows(
        rounds([
          [1, 1.2],
          [1, 1.3],
          [1, 1.15],
        ]),
      )[0].verdict,
    ).toBe('over');
    expect(
      compareRows(
        rounds([
          [1, 1.2],
          [1, 0.9],
          [1, 1.3],
        ]),
      )[0].verdict,
    ).toBe('noisy');
    expect(
      compareRows(
        rounds([
          [1, 0.5],
          [1, 0.6],
        ]),
      )[0].verdict,
    ).toBe('under');
  });

  it('marks a head row with no base row, and prints one table line per row', () => {
    const compared = compareRows([{ base: [row(1, 10)], head: [row(1, 1), row(1.05, 10)] }]);
    expect(compared.map((c) => c.verdict)).toEqual(['noisy', 'within']);
    const table = compareTable(compared);
    expect(table).toContain(
      '| W6 kb=1 rx-advisors us-per-delta | – | 1.00 | no base row | noisy |',
    );
    expect(table.split('\n')).toHaveLength(4);
  });
});

describe('W7 options', () => {
  it('reads the limit, the peer plan and the sizes, and rejects bad values', () => {
    expect(w7Options([])).toEqual({ limitMs: 1_200_000, peer: 'once', sizes: undefined });
    expect(w7Options(['--w7-limit-min=15', '--w7-peer=none', '--w7-sizes=100,1000'])).toEqual({
      limitMs: 900_000,
      peer: 'none',
      sizes: [100, 1000],
    });
    expect(() => w7Options(['--w7-peer=some'])).toThrow(/w7-peer/);
    expect(() => w7Options(['--w7-limit-min=0'])).toThrow(/w7-limit-min/);
  });
});
