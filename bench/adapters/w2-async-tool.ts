import { z } from 'zod';

/**
 * The asynchronous tool of W2 (`tool: 'async'`), the same in every framework: a zod schema
 * for its `{}` arguments and an `execute` that returns a Promise of `'ok'`. The floors
 * validate with the same schema and await the same function.
 */
export const asyncNoopArgs = z.object({});

/** How often the asynchronous tool ran (spec/bench checks each adapter really calls it). */
export const asyncNoopRuns = { count: 0 };

/** The asynchronous tool's `execute`: a Promise, settled on the next microtask. */
// eslint-disable-next-line @typescript-eslint/require-await
export async function asyncNoop(): Promise<string> {
  asyncNoopRuns.count++;
  return 'ok';
}

/** What the floors do with a call's arguments text: parse, validate, run. */
export function runAsyncNoop(argumentsText: string): Promise<string> {
  asyncNoopArgs.parse(JSON.parse(argumentsText));
  return asyncNoop();
}
