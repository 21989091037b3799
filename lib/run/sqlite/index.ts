// rx-advisors/run/sqlite: the run journal in SQLite (better-sqlite3, an optional peer).
// Only this entry point loads better-sqlite3.
export {
  SqliteRunJournal,
  type SqliteRunJournalOptions,
  type SqliteRunJournalSynchronous,
} from './sqlite-run-journal.js';
