import { join } from 'node:path';
import { runReleasedTogether } from '../../support/released-together';

/** Runs two writer processes on one conversation, released at the same moment; resolves when both exited 0. */
export async function runTwoWriters(
  store: 'redis' | 'postgres' | 'sqlite',
  url: string,
  namespace: string,
  conversationId: string,
  turns: number,
): Promise<void> {
  await runReleasedTogether(
    join(__dirname, 'concurrent-memory-writer.ts'),
    ['one', 'two'].map((writer) => [store, url, namespace, conversationId, writer, String(turns)]),
    45_000,
  );
}
