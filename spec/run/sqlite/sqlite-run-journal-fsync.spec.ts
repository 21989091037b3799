import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCi, itWhen, type Requirement } from '../../support/skip-marker';

// Which of SqliteRunJournal's appends wait for an fsync of the WAL, with each `synchronous`,
// as the kernel sees it: a child process appends two runs' records (each with the call of a
// tool that is not idempotent) under strace, marking each append, and the fsyncs of the
// `-wal` file are counted between the marks. An fsync is what makes a commit survive a power
// cut; no test can cut the power, so this is the closest observable.

/** strace, allowed to trace a child here (under CI=true it must be: the test then fails). */
function straceRequirement(): Requirement {
  const probe = spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', 'true'], { stdio: 'ignore' });
  return probe.status === 0 || isCi()
    ? { available: true, reason: 'strace' }
    : { available: false, reason: 'strace is not installed or may not trace here' };
}
const itTraced = itWhen(straceRequirement());

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'rx-advisors-run-sqlite-fsync-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * Runs support/append-and-mark.ts on `file` under strace; resolves with the fsyncs of the
 * WAL made during each append, in order (12 appends: 6 batches of 2 runs).
 */
function fsyncsPerAppend(file: string, mode: string): Promise<number[]> {
  const script = join(__dirname, 'support', 'append-and-mark.ts');
  const marks = `${file}.marks`;
  const trace = `${file}.trace`;
  const child = spawn(
    'strace',
    [
      ...['-f', '-qq', '-y', '-e', 'trace=write,fsync,fdatasync'],
      ...['-P', marks, '-P', `${file}-wal`, '-o', trace],
      ...[process.execPath, '--import', 'tsx', script, file, mode, marks],
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve, reject) =>
    child.once('exit', (code, signal) => {
      clearTimeout(guard);
      if (code !== 0) return reject(new Error(`strace or its child exited ${code ?? signal}`));
      const counts: number[] = [];
      for (const event of readFileSync(trace, 'utf8').match(
        /append \d+|done|f(?:data)?sync\(\d+<[^>]*-wal>\)/g,
      ) ?? []) {
        if (event.startsWith('append')) counts.push(0);
        else if (event === 'done') break;
        else if (counts.length > 0) counts[counts.length - 1]++;
      }
      resolve(counts);
    }),
  );
}

/** Per run: run-started, the tool round, approval + tool-call-started, outcome, retry, answer. */
const GUARDED = [0, 0, 1, 0, 0, 0];

describe('SqliteRunJournal, the fsyncs of its appends', () => {
  itTraced(
    'fsyncs only the appends that carry a tool-call-started, by default (a path), on the first open and on a reopen',
    async () => {
      const file = join(folder, 'default.db');
      // Before: 'full' (every append fsynced).
      expect(await fsyncsPerAppend(file, 'default')).toEqual([...GUARDED, ...GUARDED]);
      expect(await fsyncsPerAppend(file, 'default')).toEqual([...GUARDED, ...GUARDED]);
    },
    120_000,
  );

  itTraced(
    "fsyncs every append with synchronous: 'full' and none with 'normal'",
    async () => {
      expect(await fsyncsPerAppend(join(folder, 'full.db'), 'full')).toEqual(Array(12).fill(1));
      expect(await fsyncsPerAppend(join(folder, 'normal.db'), 'normal')).toEqual(Array(12).fill(0));
      expect(await fsyncsPerAppend(join(folder, 'side.db'), 'side-effects')).toEqual([
        ...GUARDED,
        ...GUARDED,
      ]);
    },
    120_000,
  );
});
