// Opens a journal of each shared store the way an application would, for child processes.
import type { RunJournal } from '../../../lib/run/index';
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
  throw new Error(`no ${store} journal yet`);
}
