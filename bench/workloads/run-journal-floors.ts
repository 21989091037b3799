import type { RunJournal } from 'rx-advisors/run';
import { cpuNow, startTimedBatch } from '../harness/measure.js';

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

/**
 * The shortest CPU time a timed sample lasts: the main-thread clock (schedstat) advances in
 * scheduler ticks, so a 20-call sample (~10 ms) read 0.00 µs at times (issue 26, 2026-12-03).
 */
const MIN_SAMPLE_MS = 150;

/**
 * Calls per sample, so that a sample lasts at least {@link MIN_SAMPLE_MS} of main-thread CPU
 * time: the median cost per call of 3 groups, each of calls until 25 ms of that clock passed
 * (the process clock, which `interleaveTimed` sizes with, also counts the compiler's and the
 * GC's threads, busy while the code warms up: it sized samples too short).
 */
export async function batchSize(call: () => Promise<void>): Promise<number> {
  const costs: number[] = [];
  for (let group = 0; group < 3; group++) {
    const start = cpuNow();
    let calls = 0;
    while (cpuNow() - start < 25 || calls < 10) {
      await call();
      calls++;
    }
    costs.push((cpuNow() - start) / calls);
  }
  const typical = costs.sort((a, b) => a - b)[1];
  return Math.min(20_000, Math.max(1, Math.ceil(MIN_SAMPLE_MS / Math.max(typical, 0.001))));
}

/**
 * µs of main-thread CPU time per call, over a batch of `batch` calls, started as the
 * harness starts a timed batch (`startTimedBatch`: a scavenge, off the clock; no full GC,
 * which would deoptimize the warm code). CPU time, not the wall clock: the bench machine is
 * shared, and what a run costs this process is what it runs itself; the time spent waiting
 * for a server or a disk is not in it (see the appends).
 */
export async function timed(call: () => Promise<void>, batch: number): Promise<number> {
  startTimedBatch();
  const start = cpuNow();
  for (let i = 0; i < batch; i++) await call();
  return ((cpuNow() - start) * 1000) / batch;
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
    startTimedBatch();
    samples.push(await sample());
  }
  return { bytes, samples };
}
