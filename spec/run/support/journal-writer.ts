// A child process for the two-process tests: appends `count` records to one run through
// its own journal, after the parent says "go" on stdin. An append that loses the race
// (`'conflict'`) re-reads the run's length and tries again.
//   tsx journal-writer.ts <sqlite|redis|postgres> <file or url> <namespace> <writer> <count>
import { createInterface } from 'node:readline';
import { RunJournalError, type RunJournal } from '../../../lib/run/index';
import { openJournal } from './open-journal';
import { numbered } from './run-records';

const [store, url, namespace, writer, count] = process.argv.slice(2) as [
  'sqlite' | 'redis' | 'postgres',
  string,
  string,
  string,
  string,
];
const key = { owner: 'owner', runId: 'shared' };

async function appendAll(journal: RunJournal): Promise<number> {
  let conflicts = 0;
  for (let i = 0; i < Number(count); i += 1) {
    for (;;) {
      const length = (await journal.read(key)).length;
      try {
        await journal.append(key, [numbered(writer, i), numbered(writer, i + 1000)], length);
        break;
      } catch (error) {
        if (!RunJournalError.isInstance(error) || error.reason !== 'conflict') throw error;
        conflicts += 1;
      }
    }
  }
  return conflicts;
}

async function main(): Promise<void> {
  const { journal, close } = await openJournal(store, url, namespace);
  await journal.read(key); // creates the tables before "go"
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) =>
    createInterface({ input: process.stdin }).once('line', () => resolve()),
  );
  const conflicts = await appendAll(journal);
  process.stdout.write(`conflicts ${conflicts}\n`);
  await close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
