// A child process for sqlite-run-journal-kill.spec.ts: appends `count` records to one run,
// one append each, through a journal on `file` with `synchronous`, says how many on stdout,
// and SIGKILLs itself at once: no close, no checkpoint, nothing flushed by an exit handler.
//   tsx append-then-die.ts <file> <side-effects|full|normal> <count>
import { SqliteRunJournal } from '../../../../lib/run/sqlite/index';
import { numbered } from '../../support/run-records';

const [file, synchronous, count] = process.argv.slice(2) as [
  string,
  'side-effects' | 'full' | 'normal',
  string,
];
const key = { owner: 'owner', runId: 'killed' };

async function main(): Promise<void> {
  const journal = new SqliteRunJournal({ path: file, synchronous });
  for (let i = 0; i < Number(count); i += 1) await journal.append(key, [numbered('a', i)], i);
  process.stdout.write(`appended ${count}\n`, () => process.kill(process.pid, 'SIGKILL'));
}

void main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
