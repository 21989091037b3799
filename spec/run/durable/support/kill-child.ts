// A durable trip run in a child process of spec/run/durable/kill.spec.ts. It prints a line
// before every journal append (`before <n> <record type> <tool name or round>`, ` + ` between
// the records of one append); at the append named
// by KILL_BEFORE it prints `paused` and waits, without writing, for the parent's SIGKILL
// (KILL_BEFORE past the last append: it pauses once the run is over). MODE=resume resumes
// the run (approving a call that may have run only if the side-effect file shows it did
// not) and prints the whole answer and the usage as JSON. Every tool execution and model
// call is appended to EFFECTS_FILE, which survives the kill. STORE=redis runs on REDIS_URL, STORE=postgres on DATABASE_URL.
import { appendFileSync, readFileSync, writeSync } from 'node:fs';
import { lastValueFrom, toArray } from 'rxjs';
import type { RunJournal } from '../../../../lib/run/run-journal';
import type { RunKey } from '../../../../lib/run/run-key';
import type { RunRecord } from '../../../../lib/run/run-record';
import { PostgresRunJournal } from '../../../../lib/run/postgres/index';
import { RedisRunJournal } from '../../../../lib/run/redis/redis-run-journal';
import { SqliteRunJournal } from '../../../../lib/run/sqlite/sqlite-run-journal';
import pg from 'pg';
import { createClient } from 'redis';
import { TRIP_QUESTION, tripClient } from './trip-run';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const effectsFile = env('EFFECTS_FILE');
const killBefore = Number(process.env['KILL_BEFORE'] ?? 'NaN');
const resume = process.env['MODE'] === 'resume';
const say = (line: string): void => {
  writeSync(1, `${line}\n`);
};
const effect = (what: string): void => appendFileSync(effectsFile, `${what}\n`);

/** Stops this process where it is (no timer, no I/O runs) until the parent kills it. */
function pause(): void {
  say('paused');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  process.exit(3);
}

/**
 * The shared store: a SQLite file (DB_FILE), Redis (REDIS_URL, KEY_PREFIX) or PostgreSQL
 * (DATABASE_URL, TABLE_NAME).
 */
async function openStore(): Promise<{ store: RunJournal; close: () => void }> {
  if (process.env['STORE'] === 'postgres') {
    const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: 2 });
    pool.on('error', () => undefined);
    const postgres = new PostgresRunJournal({ pool, tableName: env('TABLE_NAME') });
    return { store: postgres, close: () => void pool.end() };
  }
  if (process.env['STORE'] !== 'redis') {
    const sqlite = new SqliteRunJournal({ path: env('DB_FILE') });
    return { store: sqlite, close: () => sqlite.close() };
  }
  const client = createClient({ url: env('REDIS_URL') });
  client.on('error', () => undefined);
  await client.connect();
  const redis = new RedisRunJournal({ client, keyPrefix: env('KEY_PREFIX') });
  return { store: redis, close: () => client.destroy() };
}

async function main(): Promise<void> {
  const { store, close } = await openStore();
  let appends = 0;
  const journal: RunJournal = {
    append: (key: RunKey, records: readonly RunRecord[], expected: number) => {
      appends++;
      // An append may carry several records (held outcomes of idempotent tools ride with the
      // next round): each as `<type> <tool or round>`, joined by ` + `.
      const what = records.map((record) => {
        const detail =
          record.type === 'tool-outcome'
            ? record.message.name
            : record.type === 'tool-call-started'
              ? record.toolName
              : record.type === 'model-round'
                ? String(record.round)
                : '-';
        return `${record.type} ${detail}`;
      });
      say(`before ${appends} ${what.join(' + ')}`);
      if (!resume && appends === killBefore) pause();
      return store.append(key, records, expected);
    },
    read: (key) => store.read(key),
    delete: (key) => store.delete(key),
  };

  const ranBefore = (what: string): boolean =>
    readFileSync(effectsFile, 'utf8').split('\n').includes(what);
  const { client, model } = tripClient({
    journal,
    ran: effect,
    // A person checking whether the booking went through before allowing it again.
    approve: ({ toolCall }) => {
      const what = `${toolCall.name}(${(JSON.parse(toolCall.arguments) as { city: string }).city})`;
      return ranBefore(what) ? { approved: false, reason: 'it already ran' } : true;
    },
  });
  const modelStream = model.stream.bind(model);
  model.stream = (request) => {
    effect(`model(${request.messages.filter((m) => m.role === 'assistant').length + 1})`);
    return modelStream(request);
  };

  const params = { runId: 'trip-1', runOwner: 'user-1', runReplay: 'all' };
  // Killed before anything was written, the run does not exist: the client sends its question again.
  const prompt = resume && killBefore !== 1 ? client.prompt() : client.prompt(TRIP_QUESTION);
  await lastValueFrom(prompt.advisorParams(params).stream().chunks().pipe(toArray())).then(
    (chunks) => {
      let text = '';
      let usage: unknown;
      for (const chunk of chunks) {
        if (chunk.type === 'text-delta') text += chunk.text;
        if (chunk.type === 'usage') usage = chunk.usage;
      }
      say(`result ${JSON.stringify({ text, usage })}`);
      if (!resume) pause();
      close();
    },
    (error: unknown) => {
      say(`error ${String(error)}`);
      process.exit(2);
    },
  );
}

void main();
