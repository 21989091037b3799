import { quantile } from './stats.js';
import type { BenchResult } from './types.js';

/** One round of bench/compare.ts: the rows of the base and of the head run. */
export interface Round {
  base: readonly BenchResult[];
  head: readonly BenchResult[];
}

/** One row compared: medians of each side over the rounds, and head ÷ base per round. */
export interface ComparedRow {
  key: string;
  base: number;
  head: number;
  /** head ÷ base of each round (rounds where both sides have the row). */
  ratios: number[];
  verdict: 'within' | 'over' | 'under' | 'noisy';
}

const LIMIT = 0.1;

function keyOf(row: BenchResult): string {
  const params = Object.entries(row.params)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return `${row.workload} ${params} ${row.framework} ${row.metric}`;
}

/**
 * Pairs each row of the head with the base's row of the same key, round by round.
 * @param rounds The rounds.
 * @returns One entry per row key, in the head's order.
 */
export function compareRows(rounds: readonly Round[]): ComparedRow[] {
  const keys: string[] = [];
  const base = new Map<string, number[]>();
  const head = new Map<string, number[]>();
  const ratios = new Map<string, number[]>();
  for (const round of rounds) {
    const baseByKey = new Map(round.base.map((row) => [keyOf(row), row.median]));
    for (const row of round.head) {
      const key = keyOf(row);
      if (!head.has(key)) {
        keys.push(key);
        head.set(key, []);
        base.set(key, []);
        ratios.set(key, []);
      }
      head.get(key)!.push(row.median);
      const other = baseByKey.get(key);
      if (other === undefined) continue;
      base.get(key)!.push(other);
      if (other > 0 && row.median > 0) ratios.get(key)!.push(row.median / other);
    }
  }
  return keys.map((key) => {
    const r = ratios.get(key)!;
    const mid = quantile(r, 0.5);
    const verdict: ComparedRow['verdict'] =
      r.length === 0
        ? 'noisy'
        : Math.abs(mid - 1) <= LIMIT
          ? 'within'
          : mid > 1 && Math.min(...r) > 1
            ? 'over'
            : mid < 1 && Math.max(...r) < 1
              ? 'under'
              : 'noisy';
    return {
      key,
      base: quantile(base.get(key)!, 0.5),
      head: quantile(head.get(key)!, 0.5),
      ratios: r,
      verdict,
    };
  });
}

function cell(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toFixed(3);
}

/**
 * The comparison as a markdown table.
 * @param rows The compared rows.
 * @returns The table.
 */
export function compareTable(rows: readonly ComparedRow[]): string {
  const lines = [
    '| row | base | head | head ÷ base [min–max] | ±10 % |',
    '| --- | ---: | ---: | ---: | --- |',
  ];
  for (const row of rows) {
    const spread =
      row.ratios.length === 0
        ? 'no base row'
        : `${quantile(row.ratios, 0.5).toFixed(2)} [${Math.min(...row.ratios).toFixed(2)}–${Math.max(...row.ratios).toFixed(2)}]`;
    lines.push(
      `| ${row.key} | ${cell(row.base)} | ${cell(row.head)} | ${spread} | ${row.verdict} |`,
    );
  }
  return lines.join('\n');
}
