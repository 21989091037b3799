import { map, type Observable } from 'rxjs';
import {
  ChatClient,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  type ChatMemoryRepository,
  type Message,
} from 'rx-advisors';
import {
  W8_REPOSITORIES,
  type OpenRepository,
  type RepositoryAdapter,
} from '../adapters/w8-repositories.js';
import { BenchChatModel } from '../harness/bench-chat-model.js';
import { textChunks } from '../harness/chunks.js';
import { textFixture } from '../harness/fixtures.js';
import { startTimedBatch } from '../harness/measure.js';
import type { Report } from '../harness/report.js';
import { quartiles } from '../harness/stats.js';
import type { Framework, Metric } from '../harness/types.js';
import { quickConfig, type BenchConfig } from './config.js';

const QUESTION = 'What did the report say about the third quarter, and why did it change? ';
const ANSWER =
  'The third quarter grew by four percent, mostly from the new region; costs stayed flat, ' +
  'so the margin rose. The report expects the fourth quarter to slow down as the launch ends. ';
/** The answer of a turn, streamed in 4-character deltas. */
const FIXTURE = textFixture(24);

/** Message `i` of a stored history: user and assistant turns in turn. */
export function historyMessage(i: number): Message {
  return i % 2 === 0
    ? { role: 'user', content: `${QUESTION}(${i})` }
    : { role: 'assistant', content: `${ANSWER}(${i})` };
}

/** The window of the second read: smaller than every history but the first. */
const SMALL_WINDOW = 20;

/** One turn's messages as `add` gets them. */
function turnMessages(i: number): Message[] {
  return [
    { role: 'user', content: `${QUESTION}[turn ${i}]` },
    { role: 'assistant', content: `${ANSWER}[turn ${i}]` },
  ];
}

/** The three operations W8 times on a conversation of `stored` messages. */
export interface HistoryOps {
  /** `chatMemory.get`: the window the next call reads; resolves with its length. */
  read(): Promise<number>;
  /** `chatMemory.add` of one turn (a user message and an answer). */
  append(i: number): Promise<void>;
  /** One call through `MessageChatMemoryAdvisor`: read the window, stream the answer, append the turn; resolves with the text. */
  turn(i: number): Promise<string>;
  /** The answer every turn streams. */
  readonly answer: string;
}

/**
 * A conversation of `stored` messages in `repository` (written with one `saveAll`, outside
 * any clock) behind a `MessageWindowChatMemory` of `maxMessages: stored`: every append then
 * drops the two oldest messages, so the history stays at `stored` messages however many
 * turns a measurement runs.
 * @param repository The repository.
 * @param stored The history's length.
 * @param conversationId The conversation.
 * @returns The operations.
 */
export async function historyOps(
  repository: ChatMemoryRepository,
  stored: number,
  conversationId: string,
): Promise<HistoryOps> {
  await repository.saveAll(
    conversationId,
    Array.from({ length: stored }, (_, i) => historyMessage(i)),
  );
  const chatMemory = new MessageWindowChatMemory({ maxMessages: stored, repository });
  const chunks = textChunks(FIXTURE);
  const client = ChatClient.builder(new BenchChatModel({ script: () => chunks }))
    .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
    .build();
  const text = (content$: Observable<string>): Promise<string> =>
    new Promise((resolve, reject) => {
      let all = '';
      content$.pipe(map((delta) => (all += delta))).subscribe({
        error: reject,
        complete: () => resolve(all),
      });
    });
  return {
    read: () => chatMemory.get(conversationId).then((messages) => messages.length),
    append: (i) => chatMemory.add(conversationId, turnMessages(i)),
    turn: (i) =>
      text(
        client
          .prompt(`${QUESTION}[call ${i}]`)
          .advisorParams({ conversationId })
          .stream()
          .content(),
      ),
    answer: FIXTURE.text,
  };
}

/** A batch size for `op` so that a batch lasts at least `sampleMs`; warms `op` up meanwhile. */
async function calibrate(
  op: (i: number) => Promise<unknown>,
  sampleMs: number,
  next: () => number,
): Promise<number> {
  let calls = 0;
  const warm = performance.now();
  while (calls < 3 || performance.now() - warm < sampleMs) {
    await op(next());
    calls++;
  }
  return Math.max(1, Math.ceil((sampleMs * calls) / (performance.now() - warm)));
}

/**
 * µs per call of each of `ops`, by the wall clock (the servers' work counts), in `samples`
 * batches of ≥ `sampleMs` each, interleaved (sample 1 of every op, then sample 2 …, the first
 * op rotating), so that the load of the moment hits all alike: an append and its store's
 * floor are compared within one run, sample by sample. Each batch starts with
 * `startTimedBatch()` (a scavenge, off the clock), not a forced full GC: nothing runs between
 * that reset and the clock, and a full GC there threw away the optimized code of the path
 * the batch times.
 */
async function timeOps(
  ops: readonly ((i: number) => Promise<unknown>)[],
  samples: number,
  sampleMs: number,
): Promise<number[][]> {
  let i = 0;
  const next = (): number => i++;
  const batches: number[] = [];
  for (const op of ops) batches.push(await calibrate(op, sampleMs, next));
  const values: number[][] = ops.map(() => []);
  for (let s = 0; s < samples; s++) {
    for (let k = 0; k < ops.length; k++) {
      const o = (s + k) % ops.length;
      startTimedBatch();
      const start = performance.now();
      for (let b = 0; b < batches[o]; b++) await ops[o](next());
      values[o].push(((performance.now() - start) * 1000) / batches[o]);
    }
  }
  return values;
}

/** µs per call of `op` ({@link timeOps} of one op). */
async function timeOp(
  op: (i: number) => Promise<unknown>,
  samples: number,
  sampleMs: number,
): Promise<number[]> {
  return (await timeOps([op], samples, sampleMs))[0];
}

/**
 * Measures one repository at one history length; checks outside the clock that reads
 * return the whole window, turns answer the text, and the history stayed at `stored`.
 */
async function measure(
  adapter: RepositoryAdapter,
  { repository, floor }: OpenRepository,
  stored: number,
  plan: { samples: number; sampleMs: number },
  report: Report,
): Promise<void> {
  const id = `w8-${stored}`;
  const ops = await historyOps(repository, stored, id);
  const check = async (what: string): Promise<void> => {
    const length = await ops.read();
    if (length !== stored)
      throw new Error(`W8 ${adapter.name} ${what}: ${length} stored, not ${stored}`);
  };
  const rows: [Metric, number[]][] = [];
  rows.push(['us-per-read', await timeOp(() => ops.read(), plan.samples, plan.sampleMs)]);
  await check('read');
  // The append and the store's floor (the cheapest durable write of the same two rows),
  // interleaved batch by batch: their ratio is taken at one moment's load.
  const floorRows = turnMessages(0).map((message) => JSON.stringify(message));
  const [append, floorAppend] = await timeOps(
    floor === undefined
      ? [(i) => ops.append(i)]
      : [(i) => ops.append(i), () => floor.write(floorRows)],
    plan.samples,
    plan.sampleMs,
  );
  rows.push(['us-per-append', append]);
  await check('append');
  let bad = '';
  const turn = (i: number): Promise<void> =>
    ops.turn(i).then((text) => {
      if (text !== ops.answer) bad = text;
    });
  rows.push(['us-per-turn', await timeOp(turn, plan.samples, plan.sampleMs)]);
  if (bad !== '')
    throw new Error(`W8 ${adapter.name}: a turn answered ${JSON.stringify(bad.slice(0, 40))}`);
  await check('turn');
  // The same history read through a window of 20: the read the prompt pays when the
  // window is smaller than what is stored (its cost must follow the window, not `stored`).
  const small = new MessageWindowChatMemory({ maxMessages: SMALL_WINDOW, repository });
  const windowRead = await timeOp(
    () => small.get(id).then((messages) => messages.length),
    plan.samples,
    plan.sampleMs,
  );
  const windowLength = (await small.get(id)).length;
  if (windowLength !== Math.min(SMALL_WINDOW, stored))
    throw new Error(`W8 ${adapter.name}: a window of ${SMALL_WINDOW} read ${windowLength}`);
  await repository.deleteByConversationId(id);
  const row = (framework: Framework, metric: Metric, window: number, values: number[]): void =>
    report.addRow({
      workload: 'W8',
      params: { repository: adapter.name, stored, window },
      framework,
      metric,
      ...quartiles(values),
    });
  for (const [metric, values] of rows) row('rx-advisors', metric, stored, values);
  if (floorAppend !== undefined) row('floor-store', 'us-per-append', stored, floorAppend);
  row('rx-advisors', 'us-per-read', SMALL_WINDOW, windowRead);
}

/**
 * W8, long histories (`npm run bench -- --only=W8`): for every memory repository and a
 * conversation of 10, 100, 1,000 and 10,000 stored messages, the µs of a read
 * (`chatMemory.get`), of an append (`chatMemory.add` of one turn) and of a whole turn
 * through `MessageChatMemoryAdvisor` (read, a 24-delta answer, append), by the wall clock;
 * beside each append row, the store's floor (`floor-store`), timed interleaved with it.
 * Redis and PostgreSQL are the servers of spec/support/servers (REDIS_URL / DATABASE_URL,
 * or private processes). `BENCH_W8_REPOSITORIES=postgres,redis` runs only those.
 */
export async function runW8(config: BenchConfig, report: Report): Promise<void> {
  const quick = config === quickConfig;
  const sizes = quick ? [10, 100] : [10, 100, 1000, 10_000];
  const plan = quick ? { samples: 2, sampleMs: 10 } : { samples: 7, sampleMs: 150 };
  const only = process.env['BENCH_W8_REPOSITORIES']?.split(',').map((name) => name.trim());
  for (const adapter of W8_REPOSITORIES.filter(
    (a) => only === undefined || only.includes(a.name),
  )) {
    const open = await adapter.open();
    try {
      for (const stored of sizes) await measure(adapter, open, stored, plan, report);
      if (open.floor !== undefined)
        report.note(`W8 floor-store ${adapter.name}: ${open.floor.label}`);
    } finally {
      await open.close();
    }
  }
  report.note(
    `W8 repositories: ${W8_REPOSITORIES.map((a) => `${a.name} = ${a.label}`).join('; ')}; memory = MessageWindowChatMemory({ maxMessages: stored })`,
  );
}
