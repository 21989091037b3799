import pg from 'pg';
import { createClient, type RedisClientType } from 'redis';
import { lastValueFrom, toArray } from 'rxjs';
import { ChatClient } from '../../../lib/client/chat-client';
import { DurableRunAdvisor } from '../../../lib/run/durable/durable-run-advisor';
import { PostgresRunJournal } from '../../../lib/run/postgres/index';
import { RedisRunJournal } from '../../../lib/run/redis/index';
import type { RunJournal } from '../../../lib/run/run-journal';
import { MockChatModel } from '../../../lib/testing/mock-chat-model';
import { ToolCallingAdvisor } from '../../../lib/tools/tool-calling-advisor';
import { look } from './support/look-tool';
import {
  describeWith,
  postgresPlan,
  redisPlan,
  type StoreServer,
} from '../../support/servers/store-servers';

// Round trips to a real server per model round: a run of TOOL_ROUNDS rounds of an idempotent
// tool and an answer reads the run once, then appends once per round (the outcomes of a
// round ride with the next round's record, the answer's round with run-ended) and once for
// run-started. Redis counts the commands itself (INFO commandstats); PostgreSQL's queries
// are counted on the real pool.

const TOOL_ROUNDS = 5;
/** run-started, then one append per model round (the last one carries run-ended). */
const APPENDS = 1 + TOOL_ROUNDS + 1;

function loopClient(journal: RunJournal): ChatClient {
  const model = MockChatModel.respond((request) => {
    const round = request.messages.filter((m) => m.role === 'assistant').length + 1;
    return round <= TOOL_ROUNDS
      ? { toolCalls: [{ id: `c${round}`, name: 'look', arguments: {} }] }
      : { text: 'Done.' };
  });
  return ChatClient.builder(model)
    .defaultAdvisors(new DurableRunAdvisor({ journal, owner: 'o' }), new ToolCallingAdvisor())
    .defaultTools(look)
    .build();
}

async function run(client: ChatClient, runId: string): Promise<void> {
  const chunks = await lastValueFrom(
    client.prompt('Go.').advisorParams({ runId }).stream().chunks().pipe(toArray()),
  );
  expect(chunks.some((c) => c.type === 'text-delta' && c.text === 'Done.')).toBe(true);
}

const redis = redisPlan();
describeWith(redis)('a durable run on Redis: one command per model round', () => {
  let server: StoreServer;
  let client: RedisClientType;
  beforeAll(async () => {
    server = await redis.start();
    client = createClient({ url: server.url });
    client.on('error', () => undefined);
    await client.connect();
  }, 60_000);
  afterAll(async () => {
    if (client?.isOpen) client.destroy();
    await server?.dispose();
  }, 30_000);

  /** Calls per command since the last CONFIG RESETSTAT, as the server counted them. */
  async function commandCalls(): Promise<Record<string, number>> {
    const info = await client.sendCommand<string>(['INFO', 'commandstats']);
    const calls: Record<string, number> = {};
    for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
      calls[match[1] ?? ''] = Number(match[2]);
    }
    return calls;
  }

  it(`reads once and runs ${APPENDS} append scripts for ${TOOL_ROUNDS + 1} model rounds`, async () => {
    const durable = loopClient(new RedisRunJournal({ client, keyPrefix: 'trips:' }));
    await run(durable, 'warm-up'); // loads the script (a NOSCRIPT, then EVAL) once
    await client.sendCommand(['CONFIG', 'RESETSTAT']);
    await run(durable, 'counted');
    const calls = await commandCalls();
    // The commands the client sent (the script's own commands are counted too, run inside
    // the EVALSHA: no round trip of their own).
    expect({ lrange: calls['lrange'], evalsha: calls['evalsha'], eval: calls['eval'] }).toEqual({
      lrange: 1,
      evalsha: APPENDS,
      eval: undefined,
    });
  });
});

const postgres = postgresPlan();
describeWith(postgres)('a durable run on PostgreSQL: one query per model round', () => {
  let server: StoreServer;
  let pool: pg.Pool;
  beforeAll(async () => {
    server = await postgres.start();
    pool = new pg.Pool({ connectionString: server.url, max: 2 });
    pool.on('error', () => undefined);
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await server?.dispose();
  }, 30_000);

  it(`reads once and sends ${APPENDS} appends for ${TOOL_ROUNDS + 1} model rounds`, async () => {
    const sent: string[] = [];
    // The real pool; each query it is given is one round trip to the server.
    const counted = new Proxy(pool, {
      get(target, property, receiver) {
        if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
        return (text: string, values: unknown[]) => {
          sent.push(text);
          return target.query(text, values);
        };
      },
    });
    const durable = loopClient(new PostgresRunJournal({ pool: counted, tableName: 'trips' }));
    await run(durable, 'warm-up'); // creates the tables once
    sent.length = 0;
    await run(durable, 'counted');
    const reads = sent.filter((text) => /^\s*SELECT r\.record\b/.test(text)).length;
    expect({ reads, appends: sent.length - reads }).toEqual({ reads: 1, appends: APPENDS });
  });
});
