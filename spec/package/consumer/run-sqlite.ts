// Consumer check of `rx-advisors/run/sqlite` (see root.ts).
import type { RunJournal } from 'rx-advisors/run';
import { SqliteRunJournal } from 'rx-advisors/run/sqlite';

export function runJournal(path: string): RunJournal {
  return new SqliteRunJournal({ path, ttlMs: 24 * 60 * 60 * 1000 });
}
