// Issue 18 point 4: two demo server processes (`examples/demo/main.ts`, as `npm start` runs
// it) behind no load balancer, sharing one Redis (RedisResumableStreams) and one PostgreSQL
// (PostgresChatMemoryRepository) through REDIS_URL / DATABASE_URL. An answer started on A
// resumes on B with exactly the rest, a DELETE sent to B aborts the model call on A, and a
// conversation continued on B sees the turns written on A.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import {
  describeWith,
  postgresPlan,
  redisPlan,
  type StorePlan,
  type StoreServer,
} from '../support/servers/store-servers';
import {
  fetchJson,
  postChat,
  resumeChat,
  tempDataDir,
  type ChatEvent,
  type ChatExchange,
} from './demo-test-kit';

jest.setTimeout(120_000);

const ROOT = join(__dirname, '..', '..');
const PREFIX = '(offline demo model) ';
const NICE_TO_MEET_ADA =
  PREFIX +
  'Nice to meet you, Ada! Ask me "what is my name?" later: this browser session\'s memory ' +
  '(a SQLite file) keeps our conversation.';

const redis = redisPlan();
const postgres = postgresPlan();
const both: StorePlan = {
  available: redis.available && postgres.available,
  ownsProcess: false,
  reason: `${redis.reason}; ${postgres.reason}`,
  start: () => Promise.reject(new Error('start the two plans')),
};

interface Instance {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `examples/demo/main.ts` on a free port and resolves once it prints its URL. */
function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/demo/main.ts'], {
    cwd: ROOT,
    // No API keys from the machine running the tests: the offline demo model.
    env: { PATH: process.env['PATH'] ?? '', DEMO_DATA_DIR: tempDataDir(), PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    const onData = (data: Buffer): void => {
      output += data.toString();
      const match = /open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (match !== null) resolve({ child, url: match[1], output: () => output, exited });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => reject(new Error(`exited before printing a URL:\n${output}`)));
  });
}

async function stopInstance(instance: Instance | undefined): Promise<void> {
  if (instance === undefined || instance.child.exitCode !== null) return;
  instance.child.kill('SIGTERM');
  const timer = setTimeout(() => instance.child.kill('SIGKILL'), 10_000);
  await instance.exited;
  clearTimeout(timer);
}

/** Posts on `url` and drops the connection once `deltas` text deltas arrived. */
async function postAndDrop(
  url: string,
  message: string,
  cookie: string,
  deltas: number,
): Promise<ChatExchange> {
  let seen = 0;
  return postChat(url, message, {
    cookie,
    onEvent: (event, _req, res) => {
      if (event.event === 'text-delta' && ++seen === deltas) res.destroy();
    },
  });
}

function ids(events: readonly ChatEvent[]): number[] {
  return events.filter((e) => e.id !== undefined).map((e) => Number(e.id));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

describeWith(both)('the demo on two instances sharing Redis and PostgreSQL', () => {
  let redisServer: StoreServer | undefined;
  let postgresServer: StoreServer | undefined;
  let a: Instance | undefined;
  let b: Instance | undefined;

  beforeAll(async () => {
    [redisServer, postgresServer] = await Promise.all([redis.start(), postgres.start()]);
    const env = { REDIS_URL: redisServer.url, DATABASE_URL: postgresServer.url };
    [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
  });

  afterAll(async () => {
    await Promise.all([stopInstance(a), stopInstance(b)]);
    await Promise.all([redisServer?.dispose(), postgresServer?.dispose()]);
  });

  it('says which stores it runs on', () => {
    for (const instance of [a!, b!]) {
      expect(instance.output()).toContain('stores: streams: Redis, chat memory: PostgreSQL');
    }
    expect(a!.url).not.toBe(b!.url);
  });

  it('resumes on B, cancels from B, and continues the conversation on B', async () => {
    const cookie = `rx_demo_session=${randomUUID()}`;

    // 1. An answer started on A, dropped after 3 text deltas, resumed on B: exactly the rest.
    const first = await postAndDrop(a!.url, 'My name is Ada', cookie, 3);
    expect(first.status).toBe(200);
    const streamId = String(first.headers['x-stream-id']);
    expect(first.events.some((e) => e.event === 'done')).toBe(false);
    const seenIds = ids(first.events);
    const lastEventId = seenIds[seenIds.length - 1];
    expect(seenIds).toEqual(range(1, lastEventId));

    const rest = await resumeChat(b!.url, streamId, {
      cookie,
      lastEventId: String(lastEventId),
    });
    expect(rest.status).toBe(200);
    const restIds = ids(rest.events);
    expect(restIds[0]).toBe(lastEventId + 1);
    expect(restIds).toEqual(range(lastEventId + 1, restIds[restIds.length - 1]));
    expect(rest.events[rest.events.length - 1].event).toBe('done');
    expect(first.text + rest.text).toBe(NICE_TO_MEET_ADA);
    expect(rest.text.length).toBeGreaterThan(0);

    // Another session reaches nothing of it, on either instance.
    const stranger = `rx_demo_session=${randomUUID()}`;
    expect((await resumeChat(b!.url, streamId, { cookie: stranger })).status).toBe(204);

    // 2. An answer started on A, cancelled with a DELETE sent to B: the model call on A stops.
    const second = await postAndDrop(a!.url, 'Hello there', cookie, 2);
    const secondId = String(second.headers['x-stream-id']);
    const cancel = await fetch(new URL(`api/chat/${secondId}`, b!.url), {
      method: 'DELETE',
      headers: { cookie },
    });
    expect(cancel.status).toBe(204);
    expect((await resumeChat(a!.url, secondId, { cookie, lastEventId: '1' })).status).toBe(204);
    // The full answer (~50 words, 30 ms apart) would be saved within 2 s had the model gone on.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const onA = await fetchJson(a!.url, 'api/history', { cookie });
    const stopped = onA.json.messages[onA.json.messages.length - 1];
    expect(stopped).toMatchObject({ role: 'assistant', summary: { interrupted: 'stopped' } });
    expect(stopped.content).toMatch(/ \(stopped\)$/);
    expect(stopped.content.startsWith(second.text)).toBe(true);
    // B reads the same conversation: A's turns, the stopped one with its partial answer.
    const shared = await fetchJson(b!.url, 'api/history', { cookie });
    expect(shared.json.messages).toEqual([
      { role: 'user', content: 'My name is Ada' },
      expect.objectContaining({ role: 'assistant', content: NICE_TO_MEET_ADA }),
      { role: 'user', content: 'Hello there' },
      expect.objectContaining({ role: 'assistant', content: stopped.content }),
    ]);

    // 3. The conversation continued on B: its model sees the turns written on A.
    const third = await postChat(b!.url, 'What is my name?', { cookie });
    expect(third.events[third.events.length - 1].event).toBe('done');
    expect(third.text).toBe(`${PREFIX}Your name is Ada: you told me earlier in this session.`);
    const onAAfter = await fetchJson(a!.url, 'api/history', { cookie });
    expect(onAAfter.json.messages.slice(-2)).toEqual([
      { role: 'user', content: 'What is my name?' },
      expect.objectContaining({ role: 'assistant', content: third.text }),
    ]);
  });

  it('stops cleanly on SIGTERM, closing its Redis and PostgreSQL connections', async () => {
    for (const instance of [a!, b!]) instance.child.kill('SIGTERM');
    expect(await Promise.all([a!.exited, b!.exited])).toEqual([0, 0]);
    for (const instance of [a!, b!]) {
      expect(instance.output()).toContain(
        'stopped: server closed, streams unsubscribed, database closed',
      );
    }
  });
});
