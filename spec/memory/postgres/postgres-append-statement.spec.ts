import pg from 'pg';
import { InvalidOptionsError, type Message } from '../../../lib/index';
import { PostgresChatMemoryRepository } from '../../../lib/memory/postgres/index';
import { describeWith, postgresPlan, type StoreServer } from '../../support/servers/store-servers';
import { ReplyDroppingProxy } from '../support/reply-dropping-proxy';

const plan = postgresPlan();
let server: StoreServer;
let pool: pg.Pool;
let tables = 0;
const tableName = () => `rx_append_${process.pid}_${++tables}`;

const turn = (i: number): Message[] => [
  { role: 'user', content: `q${i}` },
  { role: 'assistant', content: `a${i}` },
];

/** The statements every client of `pool` sends from now on, in order. */
function recordStatements(target: pg.Pool): string[] {
  const sent: string[] = [];
  const patched = new WeakSet<object>();
  target.on('acquire', (client) => {
    if (patched.has(client)) return;
    patched.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
      const text = args[0];
      sent.push(typeof text === 'string' ? text.trim().split(/\s+/, 2).join(' ') : '?');
      return query(...args);
    };
  });
  return sent;
}

describeWith(plan)('PostgresChatMemoryRepository.append, one statement', () => {
  beforeAll(async () => {
    server = await plan.start();
    pool = new pg.Pool({ connectionString: server.url, max: 4 });
    pool.on('error', () => undefined);
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await server?.dispose();
  });

  it('appends and trims a long conversation with one statement, its own transaction (one round trip)', async () => {
    const table = tableName();
    const own = new pg.Pool({ connectionString: server.url, max: 1 });
    own.on('error', () => undefined);
    try {
      const repository = new PostgresChatMemoryRepository({ pool: own, tableName: table });
      const stored: Message[] = [{ role: 'system', content: 'Be brief.' }];
      for (let i = 0; i < 50; i++) stored.push(...turn(i));
      await repository.saveAll('c1', stored);
      const sent = recordStatements(own);
      await repository.append('c1', turn(50), { keepLast: 11 });
      expect(sent).toEqual([`SELECT "${table}_append"($1,`]);
      expect(await repository.findByConversationId('c1')).toEqual([
        { role: 'system', content: 'Be brief.' },
        ...[46, 47, 48, 49, 50].flatMap(turn),
      ]);
    } finally {
      await own.end();
    }
  });

  it('still appends and deletes on tables a migration of an earlier version made (no append function, no append ids), with createTable: false', async () => {
    const table = tableName();
    await pool.query(PostgresChatMemoryRepository.schemaSql(table));
    await pool.query(`DROP FUNCTION "${table}_append"`);
    await pool.query(`DROP TABLE "${table}_append_ids"`);
    const repository = new PostgresChatMemoryRepository({
      pool,
      tableName: table,
      createTable: false,
    });
    await repository.saveAll('c1', [...turn(0), ...turn(1)]);
    await repository.append('c1', turn(2), { keepLast: 4 });
    await repository.append('c1', turn(3), { keepLast: 4 });
    expect(await repository.findByConversationId('c1')).toEqual([...turn(2), ...turn(3)]);
    await repository.deleteByConversationId('c1');
    expect(await repository.findConversationIds()).toEqual([]);
  });

  it('stores a turn once when its statement committed but the reply was lost (sent again on a fresh connection)', async () => {
    const table = tableName();
    const { hostname, port } = new URL(server.url);
    const proxy = await ReplyDroppingProxy.start({ host: hostname, port: Number(port) });
    const own = new pg.Pool({ connectionString: proxy.rewrite(server.url), max: 2 });
    own.on('error', () => undefined);
    try {
      const repository = new PostgresChatMemoryRepository({ pool: own, tableName: table });
      await repository.append('c1', turn(0), { keepLast: 10 });
      proxy.dropReplyTo(`SELECT "${table}_append"`);
      await repository.append('c1', turn(1), { keepLast: 10 });
      expect(proxy.dropped).toBe(1);
      expect(await repository.findByConversationId('c1')).toEqual([...turn(0), ...turn(1)]);
    } finally {
      await own.end();
      await proxy.close();
    }
  });

  it('stores a turn once when its reply was lost and another writer trimmed its rows away before the retry', async () => {
    const table = tableName();
    const { hostname, port } = new URL(server.url);
    const proxy = await ReplyDroppingProxy.start({ host: hostname, port: Number(port) });
    const other = new PostgresChatMemoryRepository({ pool, tableName: table });
    // The retry opens a fresh connection with the pool's client class: the other writer
    // appends (trimming the first attempt's rows, token row included) before it connects.
    let beforeRetry: (() => Promise<void>) | undefined;
    const connect = pg.Client.prototype.connect as (this: pg.Client, ...args: unknown[]) => unknown;
    class Client extends pg.Client {}
    Object.defineProperty(Client.prototype, 'connect', {
      value: function (this: pg.Client, ...args: unknown[]) {
        const step = beforeRetry;
        beforeRetry = undefined;
        if (step === undefined) return connect.apply(this, args);
        return step().then(() => connect.apply(this, args));
      },
    });
    const own = new pg.Pool({ connectionString: proxy.rewrite(server.url), max: 2, Client });
    own.on('error', () => undefined);
    try {
      const repository = new PostgresChatMemoryRepository({ pool: own, tableName: table });
      await repository.append('c1', turn(0), { keepLast: 4 });
      proxy.dropReplyTo(`SELECT "${table}_append"`);
      beforeRetry = () => other.append('c1', turn(9), { keepLast: 2 });
      await repository.append('c1', turn(1), { keepLast: 4 });
      expect(proxy.dropped).toBe(1);
      expect(beforeRetry).toBeUndefined();
      // Turn 1 committed once, then the other writer's window dropped it: it is not back.
      expect(await repository.findByConversationId('c1')).toEqual(turn(9));
    } finally {
      await own.end();
      await proxy.close();
    }
  });

  it.each([
    [
      'two versions back (no append_id column, no token)',
      `TEXT, TEXT, TEXT[], TEXT[], TEXT[],
      TEXT[], TEXT[], TEXT[], BOOLEAN[], TEXT[], INTEGER`,
    ],
    [
      'one version back (the token in an append_id column)',
      `TEXT, BOOLEAN, TEXT, TEXT, TEXT[],
      TEXT[], TEXT[], TEXT[], TEXT[], TEXT[], BOOLEAN[], TEXT[], INTEGER`,
    ],
  ])('upgrades a table of an earlier version, %s, and reads its rows', async (version, args) => {
    const table = tableName();
    await pool.query(PostgresChatMemoryRepository.schemaSql(table));
    await pool.query(`DROP TABLE "${table}_append_ids"`);
    await pool.query(`DROP FUNCTION "${table}_append"`);
    if (version.startsWith('one')) await pool.query(`ALTER TABLE "${table}" ADD append_id TEXT`);
    // The earlier version's signature (its body does not matter here).
    await pool.query(`CREATE FUNCTION "${table}_append"(${args}) RETURNS VOID
      LANGUAGE sql AS ''`);
    await pool.query(`INSERT INTO "${table}" (conversation_id, position, role, content)
      VALUES ('c1', 0, 'user', 'q0'), ('c1', 1, 'assistant', 'a0')`);
    const repository = new PostgresChatMemoryRepository({ pool, tableName: table });
    await repository.append('c1', turn(1), { keepLast: 4 });
    await repository.append('c1', turn(2), { keepLast: 4 });
    expect(await repository.findByConversationId('c1')).toEqual([...turn(1), ...turn(2)]);
    const functions = await pool.query(`SELECT count(*)::int AS n FROM pg_proc
      WHERE proname = '${table}_append'`);
    expect(functions.rows).toEqual([{ n: 1 }]);
    const ids = await pool.query(`SELECT cardinality(append_ids) AS n
      FROM "${table}_append_ids" WHERE conversation_id = 'c1'`);
    expect(ids.rows).toEqual([{ n: 2 }]);
  });

  it('keeps the newest appendIdsKept append ids of a conversation, and none once it is deleted', async () => {
    const table = tableName();
    const repository = new PostgresChatMemoryRepository({
      pool,
      tableName: table,
      appendIdsKept: 3,
    });
    for (let i = 0; i < 5; i++) await repository.append('c1', turn(i), { keepLast: 2 });
    const kept = () =>
      pool.query(`SELECT cardinality(append_ids) AS n FROM "${table}_append_ids"
        WHERE conversation_id = 'c1'`);
    expect((await kept()).rows).toEqual([{ n: 3 }]);
    await repository.deleteByConversationId('c1');
    expect((await kept()).rows).toEqual([]);
    expect(() => new PostgresChatMemoryRepository({ pool, appendIdsKept: 0 })).toThrow(
      InvalidOptionsError,
    );
  });

  it('gives two tables with 63-character names that share their start an append function each', async () => {
    const start = `rx_append_${process.pid}_`.padEnd(60, 'x');
    const [one, two] = ['one', 'two'].map(
      (end) => new PostgresChatMemoryRepository({ pool, tableName: `${start}${end}` }),
    );
    await one?.append('c1', turn(1), { keepLast: 10 });
    await two?.append('c1', turn(2), { keepLast: 10 });
    await one?.append('c1', turn(3), { keepLast: 10 });
    expect(await one?.findByConversationId('c1')).toEqual([...turn(1), ...turn(3)]);
    expect(await two?.findByConversationId('c1')).toEqual(turn(2));
  });

  it('reads no more of a long conversation than its ends: the append stays O(turn) (no scan for the last position)', async () => {
    const table = tableName();
    const own = new pg.Pool({ connectionString: server.url, max: 1 });
    own.on('error', () => undefined);
    const plans: string[] = [];
    own.on('connect', (client) =>
      client.on('notice', (notice) => plans.push(notice.message ?? '')),
    );
    try {
      const repository = new PostgresChatMemoryRepository({ pool: own, tableName: table });
      // Statistics taken while the table held chats that had just started (one message
      // each): the planner then expects one row per conversation.
      for (let c = 0; c < 50; c++) await repository.saveAll(`new-${c}`, turn(c).slice(0, 1));
      await own.query(`ANALYZE "${table}"`);
      const stored = 2_000;
      await repository.saveAll('c1', Array.from({ length: stored / 2 }, (_, i) => turn(i)).flat());
      // Past PL/pgSQL's first five custom plans: from then on its cached (generic) plans run.
      for (let i = 0; i < 8; i++)
        await repository.append('c1', turn(1_000 + i), { keepLast: stored });
      // Every statement the next append runs, nested ones included, with its rows read.
      await own.query(`LOAD 'auto_explain'`);
      await own.query(
        `SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on;
         SET auto_explain.log_nested_statements = on; SET client_min_messages = log`,
      );
      await repository.append('c1', turn(2_000), { keepLast: stored });
      await own.query('SET auto_explain.log_min_duration = -1');
      const nested = plans.filter((plan) => plan.includes(`FROM "${table}"`));
      expect(nested.length).toBeGreaterThanOrEqual(4);
      const rowsRead = nested.flatMap((plan) =>
        [...plan.matchAll(/actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/g)].map((m) => Number(m[1])),
      );
      // A conversation of 2,000 messages: the last position, the first one, the cut and the
      // two rows it drops are each a few rows of the primary key.
      expect(Math.max(...rowsRead)).toBeLessThan(20);
      expect((await repository.findByConversationId('c1')).length).toBe(stored);
    } finally {
      await own.end();
    }
  });
});
