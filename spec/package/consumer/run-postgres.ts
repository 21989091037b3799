// Consumer check of `rx-advisors/run/postgres` (see root.ts).
import type { Pool } from 'pg';
import type { RunJournal } from 'rx-advisors/run';
import { PostgresRunJournal } from 'rx-advisors/run/postgres';

export function runJournal(pool: Pool): RunJournal {
  return new PostgresRunJournal({ pool, tableName: 'app_runs' });
}

export const migration: string = PostgresRunJournal.schemaSql('app_runs');
