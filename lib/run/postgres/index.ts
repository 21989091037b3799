// rx-advisors/run/postgres: the run journal in PostgreSQL (`pg`, an optional peer).
// Only this entry point touches pg, and only its types: the application creates the Pool.
export { PostgresRunJournal, type PostgresRunJournalOptions } from './postgres-run-journal.js';
