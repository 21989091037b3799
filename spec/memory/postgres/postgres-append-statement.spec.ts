import pg from 'pg';
import type { Message } from '../../../lib/index';
import { PostgresChatMemoryRepository } from '../../../lib/memory/postgres/index';
import { describeWith, postgresPlan, type StoreServer } from '../../support/servers/store-servers';

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

  it('appends and trims a long conversation with one statement between BEGIN and COMMIT', async () => {
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
      expect(sent).toEqual(['BEGIN', `SELECT "${table}_append"($1,`, 'COMMIT']);
      expect(await repository.findByConversationId('c1')).toEqual([
        { role: 'system', content: 'Be brief.' },
        ...[46, 47, 48, 49, 50].flatMap(turn),
      ]);
    } finally {
      await own.end();
    }
  });

  it('still appends on a table a migration of an earlier version made (no append function), with createTable: false', async () => {
    const table = tableName();
    await pool.query(PostgresChatMemoryRepository.schemaSql(table));
    await pool.query(`DROP FUNCTION "${table}_append"`);
    const repository = new PostgresChatMemoryRepository({
      pool,
      tableName: table,
      createTable: false,
    });
    await repository.saveAll('c1', [...turn(0), ...turn(1)]);
    await repository.append('c1', turn(2), { keepLast: 4 });
    await repository.append('c1', turn(3), { keepLast: 4 });
    expect(await repository.findByConversationId('c1')).toEqual([...turn(2), ...turn(3)]);
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
});
