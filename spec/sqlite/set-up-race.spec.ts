import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

const ROUNDS = 150;
const WORKERS = 4;
const racer = join(__dirname, 'support', 'set-up-racer.ts');

/**
 * `WORKERS` threads, each its own connection, set a store up on one new file at the same
 * moment, `ROUNDS` times (SQLite locks between connections of one process as between
 * processes). Without the retry of lib/sqlite/set-up-sqlite.ts about 1 setup in 100 failed
 * with SQLITE_BUSY here (17 of 1,600 for the run journal), so 600 setups all but surely
 * meet the race.
 * @returns Every setup's outcome: 'ok' or the SQLite code.
 */
async function race(store: 'run-journal' | 'chat-memory' | 'vector-store'): Promise<string[]> {
  const folder = mkdtempSync(join(tmpdir(), 'rx-advisors-race-'));
  const release = new Int32Array(new SharedArrayBuffer(4));
  const workers = Array.from(
    { length: WORKERS },
    () =>
      // tsx's CommonJS hook in the thread, then the racer (a .ts file).
      new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(racer)});`, {
        eval: true,
        workerData: { folder, rounds: ROUNDS, store, release },
      }),
  );
  const outcomes: string[] = [];
  try {
    const failed = new Promise<never>((_, reject) => {
      for (const worker of workers) worker.once('error', reject);
    });
    for (let round = 0; round < ROUNDS; round++) {
      const reports = workers.map(
        (worker) =>
          new Promise<string>((resolve) =>
            worker.once('message', (m: { outcome: string }) => resolve(m.outcome)),
          ),
      );
      Atomics.store(release, 0, round + 1);
      Atomics.notify(release, 0);
      outcomes.push(...(await Promise.race([Promise.all(reports), failed])));
    }
    return outcomes;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('SQLite stores set up on one new file at the same moment', () => {
  it.each(['run-journal', 'chat-memory', 'vector-store'] as const)(
    'every %s setup succeeds (none fails with SQLITE_BUSY)',
    async (store) => {
      const outcomes = await race(store);
      expect(outcomes).toHaveLength(ROUNDS * WORKERS);
      expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual([]);
    },
    120_000,
  );
});
