import pg from 'pg';
import { ChatMemoryError, InvalidOptionsError, type Message } from '../../../lib/index';
import { PostgresChatMemoryRepository } from '../../../lib/memory/postgres/index';
import { waitUntil } from '../../support/servers/free-port';
import {
  describeWith,
  itRestartingServer,
  postgresPlan,
  type StoreServer,
} from '../../support/servers/store-servers';
import {
  chatMemoryRepositoryContract,
  everyRole,
  wholeTurns,
} from '../support/chat-memory-repository-contract';
import { continuedOnB, turnOn } from '../support/continue-on-another-instance';
import { writeThroughOutage } from '../support/outage-writers';
import { runTwoWriters } from '../support/two-writers';

const plan = postgresPlan();
let server: StoreServer;
let pool: pg.Pool;
let tables = 0;
const tableName = () => `rx_test_${process.pid}_${++tables}`;

describeWith(plan)('PostgresChatMemoryRepository', () => {
  beforeAll(async () => {
    server = await plan.start();
    pool = new pg.Pool({ connectionString: server.url, max: 10 });
    pool.on('error', () => undefined);
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await server?.dispose();
  });

  chatMemoryRepositoryContract(
    'PostgresChatMemoryRepository',
    () => new PostgresChatMemoryRepository({ pool, tableName: tableName() }),
    true,
    (maxMediaBytes) =>
      new PostgresChatMemoryRepository({ pool, tableName: tableName(), maxMediaBytes }),
  );

  it('adds the media column to a table created before media were stored', async () => {
    const table = tableName();
    // The previous version's schema, with one stored message.
    await pool.query(`CREATE TABLE "${table}" (
      conversation_id TEXT NOT NULL, position INTEGER NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
      content TEXT NOT NULL, tool_calls JSONB, reasoning JSONB, tool_call_id TEXT,
      tool_name TEXT, is_error BOOLEAN, created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
      PRIMARY KEY (conversation_id, position))`);
    await pool.query(
      `INSERT INTO "${table}" (conversation_id, position, role, content) VALUES ('old', 0, 'user', 'before')`,
    );
    const repository = new PostgresChatMemoryRepository({ pool, tableName: table });
    expect(await repository.findByConversationId('old')).toEqual([
      { role: 'user', content: 'before' },
    ]);
    const withImage: Message[] = [
      {
        role: 'user',
        content: 'now',
        media: [{ mediaType: 'image/png', data: { base64: 'iVBORw0KGgo=' } }],
      },
    ];
    await repository.saveAll('new', withImage);
    expect(await repository.findByConversationId('new')).toEqual(withImage);
  });

  it('keeps every turn whole and in each writer order when two processes append to one conversation at once', async () => {
    const table = tableName();
    await new PostgresChatMemoryRepository({ pool, tableName: table }).findConversationIds();
    await runTwoWriters('postgres', server.url, table, 'shared', 40);
    const repository = new PostgresChatMemoryRepository({ pool, tableName: table });
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
    const table = tableName();
    const other = new pg.Pool({ connectionString: server.url, max: 2 });
    other.on('error', () => undefined);
    try {
      await turnOn(
        new PostgresChatMemoryRepository({ pool, tableName: table }),
        'I am Ada.',
        'Hello Ada.',
      );
      const sent = await turnOn(
        new PostgresChatMemoryRepository({ pool: other, tableName: table }),
        'Who am I?',
        'Ada.',
      );
      expect(sent).toEqual(continuedOnB);
    } finally {
      await other.end();
    }
  });

  it('creates its table on first use, with the primary key that serves one conversation in order', async () => {
    const table = tableName();
    const repository = new PostgresChatMemoryRepository({ pool, tableName: table });
    await repository.saveAll('c1', everyRole);
    // 20,000 conversations of 5 messages: a read of one must not scan or sort them.
    await pool.query(
      `INSERT INTO "${table}" (conversation_id, position, role, content)
       SELECT 'c' || (n / 5), n % 5, 'user', 'x' FROM generate_series(10, 100009) AS n`,
    );
    await pool.query(`ANALYZE "${table}"`);
    const explained = await pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT role, content FROM "${table}" WHERE conversation_id = 'c77' ORDER BY position`,
    );
    const queryPlan = explained.rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(queryPlan).toContain(`Index Scan using ${table}_pkey`);
    expect(queryPlan).not.toContain('Seq Scan');
    expect(queryPlan).not.toContain('Sort');
  });

  it('works on a table a migration created from schemaSql, with createTable: false', async () => {
    const table = tableName();
    await pool.query(PostgresChatMemoryRepository.schemaSql(table));
    const repository = new PostgresChatMemoryRepository({
      pool,
      tableName: table,
      createTable: false,
    });
    await repository.saveAll('c1', everyRole);
    expect(await repository.findByConversationId('c1')).toEqual(everyRole);
  });

  it('rejects with a ChatMemoryError naming the SQLSTATE when createTable is false and there is no table', async () => {
    const repository = new PostgresChatMemoryRepository({
      pool,
      tableName: tableName(),
      createTable: false,
    });
    const error = await repository.findByConversationId('c1').catch((e: unknown) => e);
    expect(ChatMemoryError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'read', conversationId: 'c1', code: '42P01' });
  });

  it('rejects a message with an unknown role and leaves the stored conversation as it was', async () => {
    const repository = new PostgresChatMemoryRepository({ pool, tableName: tableName() });
    await repository.saveAll('c1', everyRole);
    const bad = [
      { role: 'user', content: 'fine' },
      { role: 'robot', content: 'no' },
    ] as Message[];
    const error = await repository.saveAll('c1', bad).catch((e: unknown) => e);
    expect(ChatMemoryError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ operation: 'write', conversationId: 'c1', code: '23514' });
    expect(await repository.findByConversationId('c1')).toEqual(everyRole);
  });

  it('rejects a damaged row with a ChatMemoryError naming the table', async () => {
    const table = tableName();
    const repository = new PostgresChatMemoryRepository({ pool, tableName: table });
    await repository.saveAll('c1', everyRole);
    await pool.query(`UPDATE "${table}" SET tool_calls = '{"x":1}' WHERE position = 2`);
    await expect(repository.findByConversationId('c1')).rejects.toThrow(
      `message 2 in table ${table} is damaged`,
    );
  });

  it('rejects with a ChatMemoryError (ECONNREFUSED) when nothing listens', async () => {
    const nowhere = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres' });
    const repository = new PostgresChatMemoryRepository({ pool: nowhere });
    const error = await repository.findByConversationId('c1').catch((e: unknown) => e);
    await nowhere.end();
    expect(error).toMatchObject({ operation: 'read', code: 'ECONNREFUSED' });
  });

  it.each([
    ['pool', { pool: {} }],
    ['tableName', { pool, tableName: 'drop table; --' }],
    ['createTable', { pool, createTable: 'yes' }],
  ])('rejects a bad %s with an InvalidOptionsError', (option, options) => {
    expect(() => new PostgresChatMemoryRepository(options as never)).toThrow(InvalidOptionsError);
    expect(() => new PostgresChatMemoryRepository(options as never)).toThrow(`"${option}"`);
  });

  itRestartingServer(plan)(
    'survives an immediate shutdown mid-write: typed errors or success, no half turn, works again after the restart',
    async () => {
      const faulty = new pg.Pool({
        connectionString: server.url,
        max: 8,
        connectionTimeoutMillis: 2000,
      });
      faulty.on('error', () => undefined);
      try {
        const repository = new PostgresChatMemoryRepository({
          pool: faulty,
          tableName: tableName(),
        });
        await repository.findConversationIds();
        const result = await writeThroughOutage(repository, async () => {
          await server.control?.stop('SIGQUIT');
          await server.control?.start();
          await waitUntil('the pool reconnecting', async () => {
            await faulty.query('SELECT 1');
            return true;
          });
        });
        expect(result.acknowledged).toBeGreaterThan(0);
      } finally {
        await faulty.end();
      }
    },
    60_000,
  );
});
