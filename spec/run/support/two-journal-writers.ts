import { join } from 'node:path';
import { runReleasedTogether } from '../../support/released-together';

/**
 * Runs two writer processes (journal-writer.ts) on one run, released at the same moment.
 * @returns How many conflicts each writer met, once both exited 0.
 */
export async function runTwoJournalWriters(
  store: 'sqlite' | 'redis' | 'postgres',
  url: string,
  namespace: string,
  count: number,
): Promise<number[]> {
  const texts = await runReleasedTogether(
    join(__dirname, 'journal-writer.ts'),
    ['one', 'two'].map((writer) => [store, url, namespace, writer, String(count)]),
    90_000,
  );
  return texts.map((text) => Number(/conflicts (\d+)/.exec(text)?.[1] ?? NaN));
}
