// Opens a journal of each shared store the way an application would, for child processes.
import type { RunJournal } from '../../../lib/run/index';
import { createClient } from 'redis';
import { RedisRunJournal } from '../../../lib/run/redis/index';
import { SqliteRunJournal } from '../../../lib/run/sqlite/index';

/** A journal on `url` (a file for SQLite) under `namespace` (a table name or key prefix). */
export async function openJournal(
  store: 'sqlite' | 'redis' | 'postgres',
  url: string,
  namespace: string,
): Promise<{ journal: RunJournal; close: () => Promise<void> }> {
  if (store === 'sqlite') {
    const journal = new SqliteRunJournal({ path: url, tableName: namespace });
    return Promise.resolve({ journal, close: () => Promise.resolve(journal.close()) });
  }
  if (store === 'redis') {
    const client = await createClient({ url }).connect();
    const journal = new RedisRunJournal({ client, keyPrefix: namespace });
    return { journal, close: async () => void (await client.quit()) };
  }
  throw new Error(`no ${store} journal yet`);
}
