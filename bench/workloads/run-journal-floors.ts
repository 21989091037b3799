import type { RunJournal } from 'rx-advisors/run';
import { collectGarbage, cpuNow } from '../harness/measure.js';

// The RUN workload's floors (bench/workloads/run-journal.ts): what each store costs at the
// least for a round's bytes, and the advisor's cost without a store.

/** A journal store, open; `close()` releases it and its server. */
export interface OpenJournal {
  readonly journal: RunJournal;
  close(): Promise<void>;
  /**
   * The floor: the least the store can do for a round, on the same handle: one write of
   * `text` (a round's records' bytes), durable as the journal's append is.
   */
  floor?(text: string): Promise<void>;
}

/** A journal that keeps nothing: what the advisor costs without a store. */
export const NO_STORE: RunJournal = {
  append: (_key, records, expected) => Promise.resolve(expected + records.length),
  read: () => Promise.resolve([]),
  delete: () => Promise.resolve(),
};

/** Calls per sample, so that a sample is long enough for the schedstat clock. */
const BATCH = 20;

/**
 * µs of main-thread CPU time per call, over a batch of calls. CPU time, not the wall
 * clock: the bench machine is shared, and what a run costs this process is what it runs
 * itself; the time spent waiting for a server or a disk is not in it (see the appends).
 */
export async function timed(call: () => Promise<void>): Promise<number> {
  const start = cpuNow();
  for (let i = 0; i < BATCH; i++) await call();
  return ((cpuNow() - start) * 1000) / BATCH;
}

/** Writes per sample of a floor. */
const FLOOR_BATCH = 400;

/**
 * The store's floor per round: µs of CPU time of one write of a round's bytes (those of the
 * last durable run's records, over its rounds), `pairs` samples of a batch each.
 */
export async function floorOf(
  open: OpenJournal,
  runId: string,
  rounds: number,
  pairs: number,
): Promise<{ bytes: number; samples: number[] }> {
  if (open.floor === undefined) return { bytes: 0, samples: [] };
  const records = await open.journal.read({ owner: 'bench', runId });
  const bytes = Math.round(records.map((r) => JSON.stringify(r)).join('').length / rounds);
  const text = 'x'.repeat(bytes);
  const write = open.floor.bind(open);
  // A write is short (15 µs for SQLite without fsync): a sample is FLOOR_BATCH of them, long
  // enough for the CPU clock.
  const sample = async (): Promise<number> => {
    const start = cpuNow();
    for (let i = 0; i < FLOOR_BATCH; i++) await write(text);
    return ((cpuNow() - start) * 1000) / FLOOR_BATCH;
  };
  await sample();
  const samples: number[] = [];
  for (let i = 0; i < pairs; i++) {
    collectGarbage();
    samples.push(await sample());
  }
  return { bytes, samples };
}
