import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MessageWindowChatMemory,
  TokenWindowChatMemory,
  type ChatMemory,
  type ChatMemoryUsageReport,
  type Message,
} from 'rx-advisors';
import { SqliteChatMemoryRepository } from 'rx-advisors/memory/sqlite';
import { uiMessagesToMessages, type UiMessage } from 'rx-advisors/sse';
import { quartiles } from '../harness/stats.js';
import type { Report } from '../harness/report.js';
import type { BenchConfig } from './config.js';

const TURNS_KEPT = 40;
const QUESTION = 'What did the report say about the third quarter, and why? '.repeat(2);
const ANSWER = 'The third quarter grew by four percent, mostly from the new region. '.repeat(4);
/** A turn's tokens at 4 characters a token (the report below says the same, so the window holds 40 turns). */
const TURN_TOKENS = Math.ceil((QUESTION.length + 4 + ANSWER.length) / 4);

/** µs per call of `run`, in `samples` batches of `batch` calls after `warmup` calls. */
async function timePerCall(
  run: (i: number) => unknown,
  { warmup, samples, batch }: { warmup: number; samples: number; batch: number },
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await run(i);
  const values: number[] = [];
  for (let s = 0; s < samples; s++) {
    const started = performance.now();
    for (let i = 0; i < batch; i++) await run(warmup + s * batch + i);
    values.push(((performance.now() - started) * 1000) / batch);
  }
  return values;
}

/** One turn's `add` on a conversation at its window's steady state (older turns dropped). */
async function memoryTurn(
  memory: ChatMemory,
  plan: { warmup: number; samples: number; batch: number },
) {
  const turn = (i: number): Message[] => [
    { role: 'user', content: `${QUESTION}${i}` },
    { role: 'assistant', content: ANSWER },
  ];
  for (let i = 0; i < TURNS_KEPT * 2; i++) await memory.add('c1', turn(i));
  return timePerCall((i) => {
    const messages = turn(i);
    const usage: ChatMemoryUsageReport = { inputTokens: TURN_TOKENS, calls: [messages] };
    return memory.add('c1', messages, usage);
  }, plan);
}

/** What W10 times on SQLite for one window size. */
interface SqliteWindowTimes {
  /** `get` of the window, then `add` of the turn: a memory turn's store work. */
  turn: number[];
  /** `get` of the window alone. */
  get: number[];
  /** The floor of that read: one prepared `SELECT` of the same rows, each made a message. */
  floor: number[];
}

/**
 * One memory turn as `MessageChatMemoryAdvisor` makes it (`get` of the window, then `add`
 * of the turn) on SQLite (a file, WAL), a conversation of `turnsKept` turns at its
 * window's steady state: what the read of the window costs as the window grows; then the
 * `get` alone against its floor, the same rows read by one bare prepared `SELECT` (raw
 * rows, newest first, as the repository reads them) and made `{ role, content }` messages.
 */
async function sqliteMemoryTurn(
  turnsKept: number,
  plan: { warmup: number; samples: number; batch: number },
): Promise<SqliteWindowTimes> {
  const folder = mkdtempSync(join(tmpdir(), 'rx-w10-'));
  const database = new Database(join(folder, 'memory.db'));
  try {
    const repository = new SqliteChatMemoryRepository({ database });
    const memory = new MessageWindowChatMemory({ maxMessages: turnsKept * 2, repository });
    const turn = (i: number): Message[] => [
      { role: 'user', content: `${QUESTION}${i}` },
      { role: 'assistant', content: ANSWER },
    ];
    await repository.saveAll('c1', Array.from({ length: turnsKept }, (_, i) => turn(i)).flat());
    const read = async () => {
      const window = await memory.get('c1');
      if (window.length !== turnsKept * 2) throw new Error(`W10: read ${window.length}`);
    };
    const turnTimes = await timePerCall(async (i) => {
      await read();
      await memory.add('c1', turn(i));
    }, plan);
    const bare = database
      .prepare<[string, number], [string, string]>(
        `SELECT role, content FROM rx_advisors_chat_memory WHERE conversation_id = ?
           ORDER BY position DESC LIMIT ?`,
      )
      .raw(true);
    const floorRead = () => {
      const rows = bare.all('c1', turnsKept * 2);
      const window: Message[] = [];
      for (let i = rows.length - 1; i >= 0; i--) {
        const [role, content] = rows[i];
        window.push({ role, content } as Message);
      }
      if (window.length !== turnsKept * 2) throw new Error(`W10: floor read ${window.length}`);
    };
    return {
      turn: turnTimes,
      get: await timePerCall(read, plan),
      floor: await timePerCall(floorRead, plan),
    };
  } finally {
    database.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A `useChat` conversation of `turns` turns, each with one finished tool call. */
function uiConversation(turns: number): UiMessage[] {
  const messages: UiMessage[] = [];
  for (let i = 0; i < turns; i++) {
    messages.push({
      id: `u${i}`,
      role: 'user',
      parts: [{ type: 'text', text: `${QUESTION}${i}` }],
    });
    messages.push({
      id: `a${i}`,
      role: 'assistant',
      parts: [
        { type: 'step-start' },
        {
          type: 'tool-search',
          toolCallId: `c${i}`,
          state: 'output-available',
          input: { q: 'q3' },
          output: ANSWER,
        },
        { type: 'step-start' },
        { type: 'text', text: ANSWER, state: 'done' },
      ],
    });
  }
  messages.push({ id: 'new', role: 'user', parts: [{ type: 'text', text: QUESTION }] });
  return messages;
}

/**
 * W10 long conversations: µs per turn of a token window against the message window (one
 * `add` of a turn at steady state, in-memory repository), of a whole memory turn (`get` of
 * the window + `add`) on SQLite with a window of 40 and of 5,000 turns, and of converting `useChat`'s
 * messages (the whole list, and the new user message only when memory holds the conversation).
 */
export async function runW10(config: BenchConfig, report: Report): Promise<void> {
  const quick = config.w5.rounds < 20;
  const plan = quick
    ? { warmup: 10, samples: 3, batch: 10 }
    : { warmup: 2000, samples: 9, batch: 500 };
  const add = (params: Record<string, string | number>, values: number[]) =>
    report.addRow({
      workload: 'W10',
      params,
      framework: 'rx-advisors',
      metric: 'us-per-turn',
      ...quartiles(values),
    });

  add(
    { memory: 'token-window', turnsKept: TURNS_KEPT },
    await memoryTurn(new TokenWindowChatMemory({ maxTokens: TURNS_KEPT * TURN_TOKENS }), plan),
  );
  add(
    { memory: 'message-window', turnsKept: TURNS_KEPT },
    await memoryTurn(new MessageWindowChatMemory({ maxMessages: TURNS_KEPT * 2 }), plan),
  );
  for (const turnsKept of [TURNS_KEPT, 5000]) {
    const big = turnsKept > TURNS_KEPT;
    const times = await sqliteMemoryTurn(
      turnsKept,
      quick || big ? { warmup: 5, samples: quick ? 3 : 7, batch: quick ? 3 : 10 } : plan,
    );
    const params = { memory: 'message-window', repository: 'sqlite', turnsKept };
    add({ ...params, op: 'get+add' }, times.turn);
    add({ ...params, op: 'get' }, times.get);
    report.addRow({
      workload: 'W10',
      params: { ...params, op: 'get' },
      framework: 'floor-store',
      metric: 'us-per-turn',
      ...quartiles(times.floor),
    });
  }
  report.note(
    'W10 floor-store sqlite: the same rows by one bare prepared SELECT (raw, newest first), each made a { role, content } message',
  );
  const conversation = uiConversation(TURNS_KEPT);
  for (const history of ['client', 'memory'] as const) {
    add(
      { converter: 'uiMessagesToMessages', history, uiMessages: conversation.length },
      await timePerCall(() => uiMessagesToMessages({ messages: conversation, history }), plan),
    );
  }
}
