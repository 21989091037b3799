import type { Framework } from './types.js';

/**
 * The frameworks a run measures: all, or those named in `BENCH_FRAMEWORKS`
 * (comma-separated, e.g. `rx-advisors,floor-rxjs`). bench/compare.ts sets it to time only
 * rx-advisors and the floors against two builds; workloads with peers skip the others.
 */
const only = process.env['BENCH_FRAMEWORKS']?.split(',').map((f) => f.trim());

/**
 * Whether this run measures `framework`.
 * @param framework The framework.
 * @returns True unless `BENCH_FRAMEWORKS` leaves it out.
 */
export function wantsFramework(framework: Framework): boolean {
  return only === undefined || only.includes(framework);
}
