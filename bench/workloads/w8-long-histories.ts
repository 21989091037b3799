import { map, type Observable } from 'rxjs';
import {
  ChatClient,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  type ChatMemoryRepository,
  type Message,
} from 'rx-advisors';
import { W8_REPOSITORIES, type RepositoryAdapter } from '../adapters/w8-repositories.js';
import { BenchChatModel } from '../harness/bench-chat-model.js';
import { textChunks } from '../harness/chunks.js';
import { textFixture } from '../harness/fixtures.js';
import { startTimedBatch } from '../harness/measure.js';
import type { Report } from '../harness/report.js';
import { quartiles } from '../harness/stats.js';
import type { Metric } from '../harness/types.js';
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

/**
 * µs per call of `op`, by the wall clock (the servers' work counts), in `samples` batches of
 * ≥ `sampleMs`. Each batch starts with `startTimedBatch()` (a scavenge, off the clock), not a
 * forced full GC: nothing runs between that reset and the clock, and a full GC there threw
 * away the optimized code of the append path (a W4-style re-optimization on every sample).
 */
async function timeOp(
  op: (i: number) => Promise<unknown>,
  samples: number,
  sampleMs: number,
): Promise<number[]> {
  let i = 0;
  const warm = performance.now();
  while (i < 3 || performance.now() - warm < sampleMs) await op(i++);
  const batch = Math.max(1, Math.ceil((sampleMs * i) / (performance.now() - warm)));
  const values: number[] = [];
  for (let s = 0; s < samples; s++) {
    startTimedBatch();
    const start = performance.now();
    for (let b = 0; b < batch; b++) await op(i++);
    values.push(((performance.now() - start) * 1000) / batch);
  }
  return values;
}

/**
 * Measures one repository at one history length; checks outside the clock that reads
 * return the whole window, turns answer the text, and the history stayed at `stored`.
 */
async function measure(
  adapter: RepositoryAdapter,
  repository: ChatMemoryRepository,
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
  rows.push(['us-per-append', await timeOp((i) => ops.append(i), plan.samples, plan.sampleMs)]);
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
  for (const [metric, values] of rows) {
    report.addRow({
      workload: 'W8',
      params: { repository: adapter.name, stored, window: stored },
      framework: 'rx-advisors',
      metric,
      ...quartiles(values),
    });
  }
  report.addRow({
    workload: 'W8',
    params: { repository: adapter.name, stored, window: SMALL_WINDOW },
    framework: 'rx-advisors',
    metric: 'us-per-read',
    ...quartiles(windowRead),
  });
}

/**
 * W8, long histories (`npm run bench -- --only=W8`): for every memory repository and a
 * conversation of 10, 100, 1,000 and 10,000 stored messages, the µs of a read
 * (`chatMemory.get`), of an append (`chatMemory.add` of one turn) and of a whole turn
 * through `MessageChatMemoryAdvisor` (read, a 24-delta answer, append), by the wall clock.
 * Redis and PostgreSQL are the servers of spec/support/servers (REDIS_URL / DATABASE_URL,
 * or private processes).
 */
export async function runW8(config: BenchConfig, report: Report): Promise<void> {
  const quick = config === quickConfig;
  const sizes = quick ? [10, 100] : [10, 100, 1000, 10_000];
  const plan = quick ? { samples: 2, sampleMs: 10 } : { samples: 7, sampleMs: 150 };
  for (const adapter of W8_REPOSITORIES) {
    const open = await adapter.open();
    try {
      for (const stored of sizes) await measure(adapter, open.repository, stored, plan, report);
      const { floor } = open;
      if (floor !== undefined) {
        const rows = turnMessages(0).map((message) => JSON.stringify(message));
        report.addRow({
          workload: 'W8',
          params: { repository: adapter.name, stored: 0, window: 0 },
          framework: 'floor-store',
          metric: 'us-per-append',
          ...quartiles(await timeOp(() => floor.write(rows), plan.samples, plan.sampleMs)),
        });
        report.note(`W8 floor-store ${adapter.name}: ${floor.label}`);
      }
    } finally {
      await open.close();
    }
  }
  report.note(
    `W8 repositories: ${W8_REPOSITORIES.map((a) => `${a.name} = ${a.label}`).join('; ')}; memory = MessageWindowChatMemory({ maxMessages: stored })`,
  );
}
