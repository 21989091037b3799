// Profiles the RUN row's tool loop (bench/workloads/run-journal.ts) with one journal store:
//   npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.bench.json node --expose-gc \
//     --cpu-prof --cpu-prof-dir=bench/profiles --import tsx bench/profile-run-journal.ts \
//     [in-memory|none-sync|off] [runs]
// Prints µs of main-thread CPU time per model round over the second half of the runs.
//
// `ab [pairs]`: an in-process A/B of InMemoryRunJournal's two ways of keeping what the
// durable run hands over, in one process, batches interleaved (off, text, reference, the
// order rotating): `text` makes each record's JSON text on the spot (its public append's
// way, before 2026-12-03), `reference` keeps the records (its synchronous append's way now).
// Prints the medians [p25–p75] of the overhead per model round over `off`.
import { InMemoryRunJournal, type RunJournal } from 'rx-advisors/run';
import { cpuNow } from './harness/measure.js';
import { quartiles } from './harness/stats.js';
import { batchSize, timed } from './workloads/run-journal-floors.js';
import { loopRun, synchronousNoStore } from './workloads/run-journal.js';

const ROUNDS = 21;

/** InMemoryRunJournal whose synchronous append makes each record's text (its `append`'s way). */
function textKeeping(): RunJournal {
  const journal = new InMemoryRunJournal();
  const symbol = Object.getOwnPropertySymbols(InMemoryRunJournal.prototype).find(
    (s) => s.description === 'rx-advisors.run-journal.append-now',
  );
  if (symbol === undefined) throw new Error('no append-now on InMemoryRunJournal');
  type AppendNow = (key: unknown, records: unknown, length: number, handedOver: boolean) => number;
  const appendNow = (journal as unknown as { appendNow: AppendNow }).appendNow.bind(journal);
  Object.defineProperty(journal, symbol, {
    value: (key: unknown, records: unknown, length: number) =>
      appendNow(key, records, length, false),
  });
  return journal;
}

async function ab(pairs: number): Promise<void> {
  const cases = {
    off: loopRun(undefined),
    text: loopRun(textKeeping()),
    reference: loopRun(new InMemoryRunJournal()),
  };
  const names = Object.keys(cases) as (keyof typeof cases)[];
  for (const name of names) for (let i = 0; i < 200; i++) await cases[name]();
  const batch = await batchSize(cases.reference);
  const samples = new Map(names.map((n) => [n, [] as number[]]));
  for (let i = 0; i < pairs; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length];
      samples.get(name)!.push((await timed(cases[name], batch)) / ROUNDS);
    }
  }
  const off = samples.get('off')!;
  for (const name of ['text', 'reference'] as const) {
    const over = samples.get(name)!.map((v, i) => v - off[i]);
    const q = quartiles(over);
    console.log(
      `${name}: overhead ${q.median.toFixed(2)} [${q.p25.toFixed(2)}–${q.p75.toFixed(2)}] µs per round (batch ${batch})`,
    );
  }
  const q = quartiles(off);
  console.log(`off: ${q.median.toFixed(2)} [${q.p25.toFixed(2)}–${q.p75.toFixed(2)}] µs per round`);
}

async function main(): Promise<void> {
  const [store = 'in-memory', count = '4000'] = process.argv.slice(2);
  if (store === 'ab') return ab(Number(count === '4000' ? 20 : count));
  const runs = Number(count);
  const journal =
    store === 'off'
      ? undefined
      : store === 'none-sync'
        ? synchronousNoStore()
        : new InMemoryRunJournal();
  const run = loopRun(journal);
  for (let i = 0; i < runs >> 1; i++) await run();
  const start = cpuNow();
  for (let i = 0; i < runs >> 1; i++) await run();
  const us = ((cpuNow() - start) * 1000) / (runs >> 1) / ROUNDS;
  console.log(`${store}: ${us.toFixed(2)} µs per model round`);
}

void main();
