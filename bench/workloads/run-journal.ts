import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createClient } from 'redis';
import type { Observable } from 'rxjs';
import { ChatClient, ToolCallingAdvisor, tool, type ChatChunk } from 'rx-advisors';
import { DurableRunAdvisor, InMemoryRunJournal, type RunJournal } from 'rx-advisors/run';
import { PostgresRunJournal } from 'rx-advisors/run/postgres';
import { RedisRunJournal } from 'rx-advisors/run/redis';
import { SqliteRunJournal, type SqliteRunJournalSynchronous } from 'rx-advisors/run/sqlite';
import { postgresPlan, redisPlan } from '../../spec/support/servers/store-servers.js';
import { BenchChatModel } from '../harness/bench-chat-model.js';
import { roundOf, textChunks, toolRoundChunks, TOOL_NAME } from '../harness/chunks.js';
import { textFixture } from '../harness/fixtures.js';
import { cpuClock } from '../harness/measure.js';
import type { Report } from '../harness/report.js';
import { batchSize, floorOf, NO_STORE, timed, type OpenJournal } from './run-journal-floors.js';
import { quartiles } from '../harness/stats.js';
import { quickConfig, type BenchConfig } from './config.js';

/** Tool rounds of one measured run; the run makes one more model call (the answer). */
const ROUNDS = 20;
const ANSWER = textFixture(24);
/** The answer of the per-chunk measurement: 1,000 deltas, no tools. */
const LONG = textFixture(1000);

const STORES: readonly { name: string; label: string; open(): Promise<OpenJournal> }[] = [
  {
    name: 'none',
    label: 'a RunJournal that keeps nothing (the advisor without a store)',
    open: () => Promise.resolve({ journal: NO_STORE, close: async () => {} }),
  },
  {
    // The advisor's own cost on the path an in-memory or SQLite journal takes (appends and
    // the read done on the spot, no Promise): the floor of the in-memory row.
    name: 'none-sync',
    label:
      'a RunJournal that keeps nothing, with the synchronous append and read of the in-memory store',
    open: () => Promise.resolve({ journal: synchronousNoStore(), close: async () => {} }),
  },
  {
    name: 'in-memory',
    label: 'InMemoryRunJournal',
    open: () => Promise.resolve({ journal: new InMemoryRunJournal(), close: async () => {} }),
  },
  {
    name: 'sqlite',
    label:
      "SqliteRunJournal, better-sqlite3, a file in the temp folder (WAL), synchronous: 'full' (every commit fsynced)",
    open: () => openSqlite('full'),
  },
  {
    // WAL with synchronous = NORMAL: a commit waits for no fsync (an OS crash or power loss
    // may lose the last records; a process crash does not).
    name: 'sqlite-normal',
    label: "SqliteRunJournal as above, synchronous: 'normal' (no commit fsynced)",
    open: () => openSqlite('normal'),
  },
  {
    // The default of `path`: NORMAL, and FULL for an append with a tool-call-started.
    name: 'sqlite-side-effects',
    label:
      "SqliteRunJournal as above, synchronous: 'side-effects' (the default of path: only a commit with a tool-call-started fsynced)",
    open: () => openSqlite('side-effects'),
  },
  {
    name: 'redis',
    label: 'RedisRunJournal, node-redis 5, redis-server on loopback',
    async open() {
      const plan = redisPlan();
      if (!plan.available) throw new Error(`run journal bench: no Redis (${plan.reason})`);
      const server = await plan.start();
      const client = createClient({ url: server.url });
      client.on('error', () => undefined);
      await client.connect();
      return {
        journal: new RedisRunJournal({ client, keyPrefix: 'bench-runs:' }),
        floor: async (text) => void (await client.sendCommand(['RPUSH', 'bench-floor', text])),
        close: async () => {
          await client.quit();
          await server.dispose();
        },
      };
    },
  },
  {
    name: 'postgres',
    label: 'PostgresRunJournal, pg Pool, PostgreSQL on loopback',
    async open() {
      const plan = postgresPlan();
      if (!plan.available) throw new Error(`run journal bench: no PostgreSQL (${plan.reason})`);
      const server = await plan.start();
      const pool = new pg.Pool({ connectionString: server.url, max: 4 });
      pool.on('error', () => undefined);
      await pool.query(
        'CREATE TABLE bench_floor (seq bigserial PRIMARY KEY, record text NOT NULL)',
      );
      return {
        journal: new PostgresRunJournal({ pool, tableName: 'bench_runs' }),
        floor: async (text) =>
          void (await pool.query('INSERT INTO bench_floor (record) VALUES ($1)', [text])),
        close: async () => {
          await pool.end();
          await server.dispose();
        },
      };
    },
  },
];

/**
 * The tool a measured run calls once per round. The rows without a `tool` parameter call an
 * idempotent one (its outcome rides with the next round's append: one append per round);
 * `tool: 'not-idempotent'` calls one that is not (per round: the round's append, then a
 * `tool-call-started` before the tool runs, then its outcome: three appends).
 */
type ToolKind = 'idempotent' | 'not-idempotent';

/** A client running a tool loop of `ROUNDS` rounds, with the durable run or without. */
function loopClient(journal: RunJournal | undefined, kind: ToolKind = 'idempotent'): ChatClient {
  const model = new BenchChatModel({
    script: (_call, request) => {
      const round = roundOf(request);
      return round <= ROUNDS ? toolRoundChunks(round) : textChunks(ANSWER);
    },
  });
  const noop = tool({
    name: TOOL_NAME,
    description: 'Does nothing',
    parameters: { type: 'object', properties: {} },
    idempotent: kind === 'idempotent',
    execute: () => 'ok',
  });
  return ChatClient.builder(model)
    .defaultAdvisors(
      ...(journal === undefined ? [] : [new DurableRunAdvisor({ journal, owner: 'bench' })]),
      new ToolCallingAdvisor({ maxRounds: ROUNDS + 2 }),
    )
    .defaultTools(noop)
    .build();
}

let runs = 0;

/**
 * One run of the measured tool loop, as the RUN row times it: durable on `journal`, or
 * plain without one (bench/profile-run-journal.ts profiles it).
 */
export function loopRun(journal: RunJournal | undefined): () => Promise<void> {
  const client = loopClient(journal);
  return () => answered(call(client, journal !== undefined, 'Go.'), ANSWER.text);
}

/** One call to its end; fails unless it answered `expected`. */
function answered(chunks$: Observable<ChatChunk>, expected: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let text = '';
    chunks$.subscribe({
      next: (chunk) => {
        if (chunk.type === 'text-delta') text += chunk.text;
      },
      error: reject,
      complete: () => {
        if (text !== expected)
          reject(new Error(`run journal bench: answered ${text.slice(0, 40)}`));
        else resolve();
      },
    });
  });
}

/** A journal that counts its appends (each one round trip for Redis and PostgreSQL). */
function counting(journal: RunJournal): { journal: RunJournal; appends: () => number } {
  let appends = 0;
  return {
    journal: {
      append: (key, records, expected) => {
        appends++;
        return journal.append(key, records, expected);
      },
      read: (key) => journal.read(key),
      delete: (key) => journal.delete(key),
    },
    appends: () => appends,
  };
}

const call = (client: ChatClient, durable: boolean, question: string): Observable<ChatChunk> => {
  const prompt = client.prompt(question);
  return (durable ? prompt.advisorParams({ runId: `run-${++runs}` }) : prompt).stream().chunks();
};

/** A configuration's samples (µs per unit) and the runs per sample of each side. */
interface PairedSamples {
  off: number[];
  on: number[];
  overhead: number[];
  offBatch: number;
  onBatch: number;
}

/** One measured configuration: a call without the durable run, and the same with it. */
interface Paired {
  off(): Promise<void>;
  on(): Promise<void>;
}

/**
 * Paired samples: each pair runs a batch of calls without, then a batch with, the durable
 * run (same process state, interleaved), and keeps the difference per unit of work. Each
 * side has its own batch size (each sample lasts at least 150 ms of CPU time: sized on `on`
 * alone, a sample of `off` beside a store's round trips lasted a few ms and read 0.00), the
 * order of the two alternates from pair to pair, and
 * several configurations are interleaved pair by pair (configuration 1's pair i,
 * configuration 2's pair i, …), so that a change of the machine's load falls on all alike.
 */
async function pairedOverheads(
  configurations: readonly Paired[],
  units: number,
  pairs: number,
): Promise<PairedSamples[]> {
  for (let i = 0; i < 3; i++) {
    for (const { off, on } of configurations) {
      await off();
      await on();
    }
  }
  const results: PairedSamples[] = [];
  for (const { off, on } of configurations) {
    const offBatch = await batchSize(off);
    const onBatch = await batchSize(on);
    // Settles both paths at their batch's size before the first sample.
    await timed(off, offBatch);
    await timed(on, onBatch);
    results.push({ off: [], on: [], overhead: [], offBatch, onBatch });
  }
  for (let i = 0; i < pairs; i++) {
    for (const [index, { off, on }] of configurations.entries()) {
      const result = results[index];
      let a: number;
      let b: number;
      if (i % 2 === 0) {
        a = (await timed(off, result.offBatch)) / units;
        b = (await timed(on, result.onBatch)) / units;
      } else {
        b = (await timed(on, result.onBatch)) / units;
        a = (await timed(off, result.offBatch)) / units;
      }
      result.off.push(a);
      result.on.push(b);
      result.overhead.push(b - a);
    }
  }
  return results;
}

/** The stores `RUN_STORES` names (comma-separated), else all. */
const selectedStores = (): typeof STORES => {
  const names = process.env['RUN_STORES']?.split(',').filter((name) => name !== '');
  if (names === undefined || names.length === 0) return STORES;
  const unknown = names.filter((name) => !STORES.some((store) => store.name === name));
  if (unknown.length > 0) throw new Error(`RUN_STORES: unknown ${unknown.join(', ')}`);
  return STORES.filter((store) => names.includes(store.name));
};

/**
 * The stores measured together: the SQLite ones in one group (their rows interleaved, each
 * with both kinds of tool), every other store alone (the idempotent tool). `RUN_STORES`
 * (store names, comma-separated) keeps only those stores: `RUN_STORES=sqlite,sqlite-normal,
 * sqlite-side-effects npm run bench -- --only=RUN --save` writes the SQLite rows only.
 */
function storeGroups(): { stores: (typeof STORES)[number][]; tools: ToolKind[] }[] {
  const chosen = selectedStores();
  const sqlite = chosen.filter((store) => store.name.startsWith('sqlite'));
  return [
    ...chosen
      .filter((store) => !store.name.startsWith('sqlite'))
      .map((store) => ({ stores: [store], tools: ['idempotent' as const] })),
    ...(sqlite.length === 0
      ? []
      : [{ stores: sqlite, tools: ['idempotent' as const, 'not-idempotent' as const] }]),
  ];
}

const load = (): string =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

/**
 * Durable runs' cost (`npm run bench -- --only=RUN`): for each journal store, a tool loop of
 * 20 idempotent tool rounds plus an answer, without and with `DurableRunAdvisor`, in pairs:
 * µs of main-thread CPU time per model round (the run's / 21), and the difference: the
 * journal's overhead per round (a model-round and a tool-outcome record, in one append:
 * appends counted), and each store's floor (run-journal-floors.ts). The store `none` keeps
 * nothing: the advisor's own cost. Then, in memory, a 1,000-delta answer without tools,
 * without and with the advisor: ns per chunk. Redis and PostgreSQL are the servers of
 * spec/support/servers.
 */
export async function runRunJournal(config: BenchConfig, report: Report): Promise<void> {
  const quick = config === quickConfig;
  const pairs = quick ? 3 : Number(process.env['RUN_PAIRS'] ?? 15);
  const trips: string[] = [];
  const floors: string[] = [];
  const loads: string[] = [];
  const batches: string[] = [];
  const roundsPerRun = ROUNDS + 1;
  const groups = storeGroups();
  for (const group of groups) {
    const opened: OpenJournal[] = [];
    try {
      for (const store of group.stores) opened.push(await store.open());
      const configurations = group.stores.flatMap((store, index) =>
        group.tools.map((tool) => {
          const { journal } = opened[index];
          const plain = loopClient(undefined, tool);
          // Measured on the store itself (a wrapper would hide a store's synchronous append
          // from the writer); the appends are counted on another client, through a counting
          // wrapper.
          const durable = loopClient(journal, tool);
          return {
            store,
            tool,
            index,
            off: () => answered(call(plain, false, 'Go.'), ANSWER.text),
            on: () => answered(call(durable, true, 'Go.'), ANSWER.text),
          };
        }),
      );
      const names = configurations.map(({ store, tool }) => `${store.name} (${tool})`);
      const before = load();
      const results = await pairedOverheads(configurations, roundsPerRun, pairs);
      loads.push(`${names.join(', ')}: ${before} before, ${load()} after`);
      for (const [i, { store, tool, index }] of configurations.entries()) {
        const open = opened[index];
        const counted = counting(open.journal);
        const start = counted.appends();
        await answered(call(loopClient(counted.journal, tool), true, 'Go.'), ANSWER.text);
        const perRound = ((counted.appends() - start) / roundsPerRun).toFixed(2);
        trips.push(`${store.name}${tool === 'idempotent' ? '' : ` (${tool})`} ${perRound}`);
        const params = {
          journal: store.name,
          rounds: roundsPerRun,
          ...(tool === 'idempotent' ? {} : { tool }),
        };
        // The floor: one write of a round's bytes, measured once per store (idempotent run).
        const floor =
          tool === 'idempotent'
            ? await floorOf(open, `run-${runs}`, roundsPerRun, pairs)
            : { bytes: 0, samples: [] };
        floors.push(...(floor.bytes === 0 ? [] : [`${store.name} ${floor.bytes} B`]));
        const { off, on, overhead, offBatch, onBatch } = results[i];
        batches.push(
          `${store.name}${tool === 'idempotent' ? '' : ` (${tool})`} ${offBatch} off / ${onBatch} on`,
        );
        for (const [mode, values] of [
          ['off', off],
          ['on', on],
          ['overhead', overhead],
          ...(floor.samples.length === 0 ? [] : [['floor', floor.samples] as const]),
        ] as const) {
          report.addRow({
            workload: 'RUN',
            params: { ...params, durable: mode },
            framework: 'rx-advisors',
            metric: 'us-per-round',
            ...quartiles(values),
          });
        }
      }
    } finally {
      for (const open of opened) await open.close();
    }
  }
  report.note(
    `RUN journals: ${groups
      .flatMap((group) => group.stores)
      .map((s) => `${s.name} = ${s.label}`)
      .join(
        '; ',
      )}; durable off = no DurableRunAdvisor in the chain; timed by ${cpuClock}, runs per sample (at least 150 ms of CPU time): ${batches.join(', ')}; the SQLite stores' pairs interleaved, with an idempotent tool (rows without tool) and a tool that is not idempotent (tool = not-idempotent); load average (1, 5, 15 min) per group: ${loads.join('; ')}; journal appends (one round trip each for Redis and PostgreSQL) per model round: ${trips.join(', ')}; durable floor = the store's least write per round on the same handle, one write of a round's records' bytes (${floors.join(', ')}): SQLite one transaction of one INSERT at the connection's synchronous (NORMAL for side-effects), Redis one RPUSH, PostgreSQL one INSERT`,
  );
  if (groups.every((group) => group.stores.every((store) => store.name !== 'in-memory'))) return;
  // Per chunk: the advisor's counter on every chunk (in memory: the store is not involved).
  const journal = new InMemoryRunJournal();
  const answer = (client: ChatClient, durable: boolean) =>
    answered(call(client, durable, 'Long answer.'), LONG.text);
  const textOnly = (withJournal: boolean) =>
    ChatClient.builder(new BenchChatModel({ script: () => textChunks(LONG) }))
      .defaultAdvisors(...(withJournal ? [new DurableRunAdvisor({ journal, owner: 'bench' })] : []))
      .build();
  const plain = textOnly(false);
  const durable = textOnly(true);
  const chunks = textChunks(LONG).length;
  const [{ off, on, overhead }] = await pairedOverheads(
    [{ off: () => answer(plain, false), on: () => answer(durable, true) }],
    chunks / 1000,
    pairs,
  );
  for (const [mode, values] of [
    ['off', off],
    ['on', on],
    ['overhead', overhead],
  ] as const) {
    report.addRow({
      workload: 'RUN',
      params: { journal: 'in-memory', chunks, durable: mode },
      framework: 'rx-advisors',
      metric: 'ns-per-chunk',
      ...quartiles(values),
    });
  }
}

/**
 * A SqliteRunJournal on a WAL file in a fresh temp folder, removed on close; the floor's
 * table on the same connection (at the `synchronous` the journal leaves it: NORMAL for
 * `'side-effects'`).
 */
function openSqlite(synchronous: SqliteRunJournalSynchronous) {
  const folder = mkdtempSync(join(tmpdir(), 'rx-runs-'));
  const database = new Database(join(folder, 'runs.db'));
  database.pragma('journal_mode = WAL');
  database.exec('CREATE TABLE floor (seq INTEGER PRIMARY KEY, record TEXT NOT NULL)');
  const insert = database.prepare('INSERT INTO floor (record) VALUES (?)');
  const write = database.transaction((text: string) => insert.run(text));
  return Promise.resolve({
    journal: new SqliteRunJournal({ database, synchronous }),
    floor: (text: string) => {
      write.immediate(text);
      return Promise.resolve();
    },
    close: () => {
      database.close();
      rmSync(folder, { recursive: true, force: true });
      return Promise.resolve();
    },
  });
}

/**
 * {@link NO_STORE} with the synchronous append and read the durable run's writer looks for
 * (internal symbols of lib/run/sync-append.ts, found on InMemoryRunJournal by their names:
 * the package does not export them).
 */
export function synchronousNoStore(): RunJournal {
  const symbols = Object.getOwnPropertySymbols(InMemoryRunJournal.prototype);
  const named = (name: string): symbol => {
    const found = symbols.find(
      (symbol) => symbol.description === `rx-advisors.run-journal.${name}`,
    );
    if (found === undefined) throw new Error(`run journal bench: no ${name} on InMemoryRunJournal`);
    return found;
  };
  return {
    ...NO_STORE,
    [named('append-now')]: (_key: unknown, records: readonly unknown[], expected: number) =>
      expected + records.length,
    [named('read-now')]: () => [],
  };
}
