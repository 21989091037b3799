import { createClient, type RedisClientType } from 'redis';
import {
  ChatMemoryError,
  InvalidOptionsError,
  MessageWindowChatMemory,
  type Message,
} from '../../../lib/index';
import { RedisChatMemoryRepository } from '../../../lib/memory/redis/index';
import {
  describeWith,
  itRestartingServer,
  redisPlan,
  type StoreServer,
} from '../../support/servers/store-servers';
import { waitUntil } from '../../support/servers/free-port';
import { toRow } from '../../../lib/memory/message-row';
import {
  chatMemoryRepositoryContract,
  everyRole,
  wholeTurns,
  withMedia,
} from '../support/chat-memory-repository-contract';
import { continuedOnB, turnOn } from '../support/continue-on-another-instance';
import { writeThroughOutage } from '../support/outage-writers';
import { runTwoWriters } from '../support/two-writers';

const plan = redisPlan();
let server: StoreServer;
let client: RedisClientType;
let namespaces = 0;
const namespace = () => `rx-test:${process.pid}:${++namespaces}:`;

describeWith(plan)('RedisChatMemoryRepository', () => {
  beforeAll(async () => {
    server = await plan.start();
    client = createClient({ url: server.url });
    client.on('error', () => undefined);
    await client.connect();
  }, 60_000);
  afterAll(async () => {
    if (client?.isOpen) await client.quit();
    await server?.dispose();
  });

  chatMemoryRepositoryContract(
    'RedisChatMemoryRepository',
    () => new RedisChatMemoryRepository({ client, keyPrefix: namespace() }),
    true,
    (maxMediaBytes) =>
      new RedisChatMemoryRepository({ client, keyPrefix: namespace(), maxMediaBytes }),
  );

  it('keeps every turn whole and in each writer order when two processes append to one conversation at once', async () => {
    const keyPrefix = namespace();
    await runTwoWriters('redis', server.url, keyPrefix, 'shared', 40);
    const repository = new RedisChatMemoryRepository({ client, keyPrefix });
    const names = wholeTurns(await repository.findByConversationId('shared'));
    expect(names).toHaveLength(80);
    expect(names.filter((n) => n.startsWith('one-'))).toEqual(
      Array.from({ length: 40 }, (_, i) => `one-${i}`),
    );
    expect(names.filter((n) => n.startsWith('two-'))).toEqual(
      Array.from({ length: 40 }, (_, i) => `two-${i}`),
    );
  }, 60_000);

  it('continues on instance B a conversation whose first turn instance A wrote, through the advisor', async () => {
    const keyPrefix = namespace();
    const other: RedisClientType = createClient({ url: server.url });
    other.on('error', () => undefined);
    await other.connect();
    try {
      await turnOn(new RedisChatMemoryRepository({ client, keyPrefix }), 'I am Ada.', 'Hello Ada.');
      const sent = await turnOn(
        new RedisChatMemoryRepository({ client: other, keyPrefix }),
        'Who am I?',
        'Ada.',
      );
      expect(sent).toEqual(continuedOnB);
    } finally {
      await other.quit();
    }
  });

  it('stores a conversation as a hash (system messages, version) and a list (one row per message) under its key prefix', async () => {
    const keyPrefix = namespace();
    const repository = new RedisChatMemoryRepository({ client, keyPrefix });
    await repository.saveAll('c1', everyRole);
    expect(await client.type(`${keyPrefix}conversation:c1`)).toBe('hash');
    expect(await client.hGet(`${keyPrefix}conversation:c1`, 'sc')).toBe('1');
    expect(await client.lLen(`${keyPrefix}messages:c1`)).toBe(everyRole.length - 1);
    await repository.append('c1', [{ role: 'user', content: 'more' }], { keepLast: 100 });
    expect(await client.lLen(`${keyPrefix}messages:c1`)).toBe(everyRole.length);
    expect(await client.sMembers(`${keyPrefix}conversations`)).toEqual(['c1']);
    await repository.deleteByConversationId('c1');
    expect(await client.keys(`${keyPrefix}*`)).toEqual([`${keyPrefix}version`]);
  });

  describe('a conversation stored by an earlier version (one hash field m)', () => {
    const legacyRows = (messages: readonly Message[]) =>
      JSON.stringify(
        messages.map((message, position) =>
          toRow(message, { conversationId: 'old', position, maxMediaBytes: 1 << 20 }),
        ),
      );
    const old: Message[] = [
      { role: 'system', content: 'Be brief.' },
      ...withMedia(),
      { role: 'user', content: 'u1' },
      { role: 'assistant', content: 'a1' },
    ];
    let keyPrefix: string;
    let repository: RedisChatMemoryRepository;
    beforeEach(async () => {
      keyPrefix = namespace();
      repository = new RedisChatMemoryRepository({ client, keyPrefix });
      await client.hSet(`${keyPrefix}conversation:old`, { m: legacyRows(old), v: '7' });
      await client.sAdd(`${keyPrefix}conversations`, 'old');
    });

    it('reads as it is, whole and the newest messages', async () => {
      expect(await repository.findByConversationId('old')).toEqual(old);
      expect(await repository.findLast('old', 2)).toEqual([old[0], ...old.slice(-2)]);
      expect(await repository.findLast('old', 0)).toEqual([old[0]]);
    });

    it('is rewritten in the list layout by the first append, nothing lost, then trimmed', async () => {
      const memory = new MessageWindowChatMemory({ maxMessages: 5, repository });
      const added: Message[] = [
        { role: 'user', content: 'u2' },
        { role: 'assistant', content: 'a2' },
      ];
      await repository.append('old', added);
      expect(await client.hGet(`${keyPrefix}conversation:old`, 'm')).toBeNull();
      expect(await repository.findByConversationId('old')).toEqual([...old, ...added]);
      await memory.add('old', [{ role: 'user', content: 'u3' }]);
      expect(await memory.get('old')).toEqual([old[0], ...added, { role: 'user', content: 'u3' }]);
    });

    it('is rewritten by the memory through update when a system message comes in', async () => {
      const memory = new MessageWindowChatMemory({ maxMessages: 50, repository });
      await memory.add('old', [{ role: 'system', content: 'New rules.' }]);
      expect(await client.hGet(`${keyPrefix}conversation:old`, 'm')).toBeNull();
      expect(await memory.get('old')).toEqual([
        { role: 'system', content: 'New rules.' },
        ...old.slice(1),
      ]);
    });
  });

  it('rejects a message with an unknown role and leaves the stored conversation as it was', async () => {
    const repository = new RedisChatMemoryRepository({ client, keyPrefix: namespace() });
    await repository.saveAll('c1', everyRole);
    const bad = [
      { role: 'user', content: 'fine' },
      { role: 'robot', content: 'no' },
    ] as Message[];
    const error = await repository.saveAll('c1', bad).catch((e: unknown) => e);
    expect(ChatMemoryError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'write', conversationId: 'c1' });
    expect(await repository.findByConversationId('c1')).toEqual(everyRole);
  });

  it('rejects a damaged stored conversation with a ChatMemoryError naming the key', async () => {
    const keyPrefix = namespace();
    await client.hSet(`${keyPrefix}conversation:c1`, { m: '{not json', v: '1' });
    const repository = new RedisChatMemoryRepository({ client, keyPrefix });
    await expect(repository.findByConversationId('c1')).rejects.toThrow(
      `${keyPrefix}conversation:c1 is damaged`,
    );
  });

  it('gives up with a ChatMemoryError (CONFLICT) after maxUpdateAttempts lost check-and-sets', async () => {
    const keyPrefix = namespace();
    const repository = new RedisChatMemoryRepository({ client, keyPrefix, maxUpdateAttempts: 2 });
    const rival = new RedisChatMemoryRepository({ client, keyPrefix });
    let calls = 0;
    const error = await repository
      .update('c1', (stored) => {
        calls++;
        // Another writer commits between this read and its check-and-set, every time.
        void rival.saveAll('c1', [{ role: 'user', content: `rival ${calls}` }]);
        return [...stored, { role: 'user', content: 'mine' }];
      })
      .catch((e: unknown) => e);
    expect(calls).toBe(2);
    expect(error).toMatchObject({ operation: 'write', conversationId: 'c1', code: 'CONFLICT' });
    expect(await repository.findByConversationId('c1')).toEqual([
      { role: 'user', content: 'rival 2' },
    ]);
  });

  it('sends each script by its hash (EVALSHA), and by its text once when the server lost it (SCRIPT FLUSH)', async () => {
    const sent: string[] = [];
    const recording = {
      sendCommand: (args: string[]) => {
        sent.push(args[0] ?? '');
        return client.sendCommand(args);
      },
    };
    const repository = new RedisChatMemoryRepository({ client: recording, keyPrefix: namespace() });
    await client.sendCommand(['SCRIPT', 'FLUSH']);
    await repository.append('c1', [{ role: 'user', content: 'one' }], { keepLast: 4 });
    await repository.append('c1', [{ role: 'user', content: 'two' }], { keepLast: 4 });
    expect(await repository.findByConversationId('c1')).toEqual([
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
    ]);
    expect(sent).toEqual(['EVALSHA', 'EVAL', 'EVALSHA', 'EVALSHA', 'EVAL']);
  });

  it('rejects with a ChatMemoryError when the client is closed', async () => {
    const closed = createClient({ url: server.url });
    const repository = new RedisChatMemoryRepository({ client: closed });
    const error = await repository.findByConversationId('c1').catch((e: unknown) => e);
    expect(ChatMemoryError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'read', conversationId: 'c1' });
  });

  it.each([
    ['client', { client: {} }],
    ['keyPrefix', { client: { sendCommand: () => Promise.resolve() }, keyPrefix: 1 }],
    [
      'maxUpdateAttempts',
      { client: { sendCommand: () => Promise.resolve() }, maxUpdateAttempts: 0 },
    ],
  ])('rejects a bad %s with an InvalidOptionsError', (option, options) => {
    expect(() => new RedisChatMemoryRepository(options as never)).toThrow(InvalidOptionsError);
    expect(() => new RedisChatMemoryRepository(options as never)).toThrow(`"${option}"`);
  });

  itRestartingServer(plan)(
    'survives the server being killed mid-write: typed errors or success, no half turn, works again after the restart',
    async () => {
      const faulty: RedisClientType = createClient({
        url: server.url,
        disableOfflineQueue: true,
        socket: { reconnectStrategy: () => 50 },
      });
      faulty.on('error', () => undefined);
      await faulty.connect();
      try {
        const repository = new RedisChatMemoryRepository({
          client: faulty,
          keyPrefix: namespace(),
        });
        const memory = new MessageWindowChatMemory({ repository });
        await memory.add('warm-up', [{ role: 'user', content: 'hi' }]);
        const result = await writeThroughOutage(repository, async () => {
          await server.control?.stop('SIGKILL');
          await server.control?.start();
          await waitUntil('the client reconnecting', async () => (await faulty.ping()) === 'PONG');
        });
        expect(result.acknowledged).toBeGreaterThan(0);
      } finally {
        await faulty.quit().catch(() => undefined);
      }
    },
    60_000,
  );
});
