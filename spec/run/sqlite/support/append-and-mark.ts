// A child process for sqlite-run-journal-fsync.spec.ts: appends the records of two runs that
// call a tool that is not idempotent, in the batches the durable run writes them, through a
// journal on `file` with `synchronous` (`default`: none given), and writes `append <n>` to
// `marks` before each append and `done` after the last, so that a trace of the process's
// syscalls tells which append made which fsync.
//   tsx append-and-mark.ts <file> <default|side-effects|full|normal> <marks>
import { closeSync, openSync, writeSync } from 'node:fs';
import type { RunRecord } from '../../../../lib/run/index';
import {
  SqliteRunJournal,
  type SqliteRunJournalSynchronous,
} from '../../../../lib/run/sqlite/index';
import { everyType, numbered } from '../../support/run-records';

const [file, mode, marks] = process.argv.slice(2) as [string, string, string];

/**
 * The batches of one run (spec/run/support/run-records.ts `everyType`): run-started; the
 * round with the tool call; the approval held and the call's `tool-call-started` (the only
 * batch that guards a side effect); the call's outcome; a judge's decision and a validation
 * retry; the answer with `run-ended`.
 */
export const BATCHES: readonly (readonly number[])[] = [[0], [1], [2, 3], [4], [5, 6], [7, 8]];

async function main(): Promise<void> {
  const journal = new SqliteRunJournal({
    path: file,
    ...(mode === 'default' ? {} : { synchronous: mode as SqliteRunJournalSynchronous }),
  });
  // Before the first mark: opens the file, switches it to WAL, makes the tables, and starts
  // the WAL (its first frame writes the WAL's header, which SQLite fsyncs in every mode; it
  // does again each time the WAL restarts after a checkpoint, every 1,000 frames or so).
  await journal.append({ owner: 'owner', runId: `warm-up-${process.pid}` }, [numbered('w', 0)], 0);
  const fd = openSync(marks, 'w');
  let n = 0;
  for (const runId of [`run-a-${process.pid}`, `run-b-${process.pid}`]) {
    const records: RunRecord[] = everyType();
    let length = 0;
    for (const batch of BATCHES) {
      writeSync(fd, `append ${n++}\n`);
      length = await journal.append(
        { owner: 'owner', runId },
        batch.map((i) => records[i]),
        length,
      );
    }
  }
  writeSync(fd, 'done\n');
  closeSync(fd);
  journal.close();
}

void main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
