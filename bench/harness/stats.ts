/** Quartiles of a sample (linear interpolation, like numpy's default). */
export interface Quartiles {
  median: number;
  p25: number;
  p75: number;
}

/**
 * The p-quantile of `values` (0 ≤ p ≤ 1).
 * @param values The sample (not modified).
 * @param p The quantile.
 * @returns The interpolated quantile, or NaN for an empty sample.
 */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * p;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  const lowValue = sorted[low];
  return lowValue + (sorted[high] - lowValue) * (position - low);
}

/**
 * Median, p25 and p75 of a sample, rounded to 3 significant decimals.
 * @param values The sample.
 * @returns The quartiles.
 */
export function quartiles(values: readonly number[]): Quartiles {
  return {
    median: round(quantile(values, 0.5)),
    p25: round(quantile(values, 0.25)),
    p75: round(quantile(values, 0.75)),
  };
}

function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const magnitude = Math.abs(value);
  const digits = magnitude >= 100 ? 1 : magnitude >= 1 ? 2 : 3;
  return Number(value.toFixed(digits));
}
