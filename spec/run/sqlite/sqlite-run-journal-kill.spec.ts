import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteRunJournal } from '../../../lib/run/sqlite/index';
import { numbered } from '../support/run-records';

// What a killed process leaves in SqliteRunJournal's file, with each `synchronous`: every
// append that returned (the frames are in the WAL, in the OS's cache, with NORMAL too; only
// a power cut or an OS crash can lose NORMAL's last appends, which no test here can do).

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'rx-advisors-run-sqlite-kill-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Runs append-then-die.ts; resolves with its stdout once it died of SIGKILL. */
function appendThenDie(file: string, synchronous: string, count: number): Promise<string> {
  const script = join(__dirname, 'support', 'append-then-die.ts');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, file, synchronous, String(count)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  child.stdout.on('data', (data: Buffer) => (out += data.toString()));
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve, reject) =>
    child.once('exit', (code, signal) => {
      clearTimeout(guard);
      if (signal === 'SIGKILL' && out.includes(`appended ${count}`)) resolve(out);
      else reject(new Error(`the child exited ${code ?? signal}: ${out}`));
    }),
  );
}

describe('SqliteRunJournal, its process killed', () => {
  it.each(['normal', 'side-effects', 'full'])(
    'keeps every append that returned, with synchronous %s',
    async (synchronous) => {
      const file = join(folder, `${synchronous}.db`);
      await appendThenDie(file, synchronous, 30);
      // Not checkpointed: the records are in the WAL the dead process left.
      expect(existsSync(`${file}-wal`) && statSync(`${file}-wal`).size).toBeGreaterThan(0);
      const database = new Database(file);
      try {
        const journal = new SqliteRunJournal({ database });
        const records = await journal.read({ owner: 'owner', runId: 'killed' });
        expect(records).toEqual(Array.from({ length: 30 }, (_, i) => numbered('a', i)));
      } finally {
        database.close();
      }
    },
    90_000,
  );
});
