// Profiles the RUN row's tool loop (bench/workloads/run-journal.ts) with one journal store:
//   npm run build && TSX_TSCONFIG_PATH=bench/tsconfig.bench.json node --expose-gc \
//     --cpu-prof --cpu-prof-dir=bench/profiles --import tsx bench/profile-run-journal.ts \
//     [in-memory|none-sync|off] [runs]
// Prints µs of main-thread CPU time per model round over the second half of the runs.
import { InMemoryRunJournal } from 'rx-advisors/run';
import { cpuNow } from './harness/measure.js';
import { loopRun, synchronousNoStore } from './workloads/run-journal.js';

async function main(): Promise<void> {
  const [store = 'in-memory', count = '4000'] = process.argv.slice(2);
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
  const us = ((cpuNow() - start) * 1000) / (runs >> 1) / 21;
  console.log(`${store}: ${us.toFixed(2)} µs per model round`);
}

void main();
