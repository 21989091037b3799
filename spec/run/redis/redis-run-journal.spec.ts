import { createClient, type RedisClientType } from 'redis';
import { InvalidOptionsError } from '../../../lib/index';
import { RunJournalError, type RunKey } from '../../../lib/run/index';
import { RedisRunJournal } from '../../../lib/run/redis/index';
import { waitUntil } from '../../support/servers/free-port';
import {
  describeWith,
  itRestartingServer,
  redisPlan,
  type StoreServer,
} from '../../support/servers/store-servers';
import { runJournalContract } from '../support/run-journal-contract';
import { failureOf, numbered } from '../support/run-records';
import { runTwoJournalWriters } from '../support/two-journal-writers';

const plan = redisPlan();
let server: StoreServer;
let client: RedisClientType;
let other: RedisClientType;
let namespaces = 0;
const namespace = () => `rx-test:${process.pid}:${++namespaces}:`;
const recordsKey = (prefix: string, key: RunKey) =>
  `${prefix}{${encodeURIComponent(key.owner)}:${encodeURIComponent(key.runId)}}:records`;
const key: RunKey = { owner: 'alice', runId: 'run-1' };

async function connected(url: string, options = {}): Promise<RedisClientType> {
  const made: RedisClientType = createClient({ url, ...options });
  made.on('error', () => undefined);
  await made.connect();
  return made;
}

describeWith(plan)('RedisRunJournal', () => {
  beforeAll(async () => {
    server = await plan.start();
    client = await connected(server.url);
    other = await connected(server.url);
  }, 60_000);
  afterAll(async () => {
    // The restart test leaves these reconnecting: closed at once, not after a QUIT round trip.
    for (const made of [client, other]) if (made?.isOpen) made.destroy();
    await server?.dispose();
  }, 30_000);

  runJournalContract('RedisRunJournal', (limits) => {
    const keyPrefix = namespace();
    return Promise.resolve({
      journal: new RedisRunJournal({ ...limits, client, keyPrefix }),
      other: new RedisRunJournal({ ...limits, client: other, keyPrefix }),
      overwrite: async (run, index, text) => {
        await client.lSet(recordsKey(keyPrefix, run), index, text);
      },
    });
  });

  it('keeps a run as a list and a byte counter under one hash tag, both with the TTL, deleted whole', async () => {
    const keyPrefix = namespace();
    const journal = new RedisRunJournal({ client, keyPrefix, ttlMs: 60_000 });
    const odd: RunKey = { owner: 'a:{b}', runId: 'c}:d' };
    await journal.append(odd, [numbered('a', 0), numbered('a', 1)], 0);
    const stored = (await client.keys(`${keyPrefix}*`)).sort();
    expect(stored).toEqual([
      `${keyPrefix}{a%3A%7Bb%7D:c%7D%3Ad}:bytes`,
      `${keyPrefix}{a%3A%7Bb%7D:c%7D%3Ad}:records`,
    ]);
    expect(await client.lLen(stored[1] ?? '')).toBe(2);
    for (const name of stored) {
      const ttl = await client.pTTL(name);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
    await journal.delete(odd);
    expect(await client.keys(`${keyPrefix}*`)).toEqual([]);
  });

  it('loads its script again after the server forgot it (SCRIPT FLUSH)', async () => {
    const journal = new RedisRunJournal({ client, keyPrefix: namespace() });
    await journal.append(key, [numbered('a', 0)], 0);
    await client.scriptFlush();
    expect(await journal.append(key, [numbered('a', 1)], 1)).toBe(2);
    expect(await journal.read(key)).toEqual([numbered('a', 0), numbered('a', 1)]);
  });

  it('fails with store-failure when a key holds something else', async () => {
    const keyPrefix = namespace();
    await client.set(recordsKey(keyPrefix, key), 'a string');
    const journal = new RedisRunJournal({ client, keyPrefix });
    expect(await failureOf(journal.read(key))).toMatchObject({ reason: 'store-failure' });
    const error = await failureOf(journal.append(key, [numbered('a', 0)], 0));
    expect(error).toMatchObject({ reason: 'store-failure', runId: 'run-1' });
    expect((error as Error).message).toMatch(/WRONGTYPE/);
  });

  it.each([
    ['client', {}],
    ['client', { client: {} }],
    ['keyPrefix', { client: { sendCommand: () => Promise.resolve() }, keyPrefix: 1 }],
    ['commandTimeoutMs', { client: { sendCommand: () => Promise.resolve() }, commandTimeoutMs: 0 }],
    ['maxRecords', { client: { sendCommand: () => Promise.resolve() }, maxRecords: 0 }],
  ])('rejects a bad %s with an InvalidOptionsError', (option, options) => {
    expect(() => new RedisRunJournal(options as never)).toThrow(InvalidOptionsError);
    expect(() => new RedisRunJournal(options as never)).toThrow(`"${option}"`);
  });

  it('keeps every append whole when two processes write one run at once, each in its order', async () => {
    const keyPrefix = namespace();
    await runTwoJournalWriters('redis', server.url, keyPrefix, 25);
    const journal = new RedisRunJournal({ client, keyPrefix });
    const records = await journal.read({ owner: 'owner', runId: 'shared' });
    expect(records).toHaveLength(100);
    const feedback = records.map((r) => (r.type === 'validation-retry' ? r.feedback : ''));
    for (const writer of ['one', 'two']) {
      const mine = feedback.filter((f) => f.startsWith(`${writer}-`));
      const pairs = Array.from({ length: 25 }, (_, i) => [
        `${writer}-${i}`,
        `${writer}-${i + 1000}`,
      ]);
      expect(mine).toEqual(pairs.flat());
    }
    for (let i = 0; i < 100; i += 2) {
      expect(feedback[i + 1]?.split('-')[0]).toBe(feedback[i]?.split('-')[0]);
    }
  }, 120_000);

  itRestartingServer(plan)(
    'fails within commandTimeoutMs while the server is down (no hang), and keeps the run across the restart',
    async () => {
      const queued = await connected(server.url, { socket: { reconnectStrategy: () => 50 } });
      try {
        const journal = new RedisRunJournal({
          client: queued,
          keyPrefix: namespace(),
          commandTimeoutMs: 300,
        });
        await journal.append(key, [numbered('a', 0)], 0);
        await server.control?.stop('SIGKILL');
        const error = await failureOf(journal.append(key, [numbered('a', 1)], 1));
        expect(RunJournalError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ reason: 'store-failure', runId: 'run-1' });
        expect((error as Error).message).toMatch(/did not answer within 300 ms|Redis failed/);
        expect(await failureOf(journal.read(key))).toMatchObject({ reason: 'store-failure' });
        await server.control?.start();
        await waitUntil('the client reconnecting', async () => (await queued.ping()) === 'PONG');
        const records = await journal.read(key);
        expect(records.slice(0, 1)).toEqual([numbered('a', 0)]);
        expect(await journal.append(key, [numbered('a', 2)], records.length)).toBe(
          records.length + 1,
        );
      } finally {
        await queued.quit().catch(() => undefined);
      }
    },
    60_000,
  );
});
