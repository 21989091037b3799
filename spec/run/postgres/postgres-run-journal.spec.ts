import pg from 'pg';
import { InvalidOptionsError } from '../../../lib/index';
import { type RunKey } from '../../../lib/run/index';
import { PostgresRunJournal } from '../../../lib/run/postgres/index';
import {
  describeWith,
  itRestartingServer,
  postgresPlan,
  type StoreServer,
} from '../../support/servers/store-servers';
import { runJournalContract } from '../support/run-journal-contract';
import { failureOf, numbered } from '../support/run-records';
import { runTwoJournalWriters } from '../support/two-journal-writers';

const plan = postgresPlan();
let server: StoreServer;
let pool: pg.Pool;
let other: pg.Pool;
let tables = 0;
const tableName = () => `run_journal_${process.pid}_${++tables}`;
const key: RunKey = { owner: 'alice', runId: 'run-1' };
const newPool = (url: string): pg.Pool => {
  const made = new pg.Pool({ connectionString: url, max: 4 });
  made.on('error', () => undefined);
  return made;
};

/** A pool whose next query commits and then loses its reply, as when a connection drops after COMMIT. */
function replyLostOnce(real: pg.Pool): pg.Pool {
  let lose = true;
  return new Proxy(real, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
      return async (...args: Parameters<pg.Pool['query']>) => {
        const result = await (target.query as (...a: unknown[]) => Promise<unknown>)(...args);
        if (!lose) return result;
        lose = false;
        throw Object.assign(new Error('Connection terminated unexpectedly'), {});
      };
    },
  });
}

describeWith(plan)('PostgresRunJournal', () => {
  beforeAll(async () => {
    server = await plan.start();
    pool = newPool(server.url);
    other = newPool(server.url);
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await other?.end();
    await server?.dispose();
  }, 30_000);

  runJournalContract('PostgresRunJournal', (limits) => {
    const table = tableName();
    return Promise.resolve({
      journal: new PostgresRunJournal({ ...limits, pool, tableName: table }),
      other: new PostgresRunJournal({ ...limits, pool: other, tableName: table }),
      overwrite: async (run, index, text) => {
        await pool.query(
          `UPDATE "${table}" SET record = $1 WHERE owner = $2 AND run_id = $3 AND seq = $4`,
          [text, run.owner, run.runId, index],
        );
      },
    });
  });

  it('creates its tables as schemaSql says, and works on tables a migration created', async () => {
    const table = tableName();
    await pool.query(PostgresRunJournal.schemaSql(table));
    const journal = new PostgresRunJournal({ pool, tableName: table, createTable: false });
    await journal.append(key, [numbered('a', 0)], 0);
    expect(await journal.read(key)).toEqual([numbered('a', 0)]);
    expect(() => PostgresRunJournal.schemaSql('a; DROP TABLE x')).toThrow(InvalidOptionsError);
    const missing = new PostgresRunJournal({ pool, tableName: tableName(), createTable: false });
    const error = await failureOf(missing.read(key));
    expect(error).toMatchObject({ reason: 'store-failure', runId: 'run-1' });
    expect((error as Error).message).toMatch(/42P01.*schemaSql/);
  });

  it('refuses an owner or run id with a NUL character (PostgreSQL text cannot hold it): read [], append fails', async () => {
    const journal = new PostgresRunJournal({ pool, tableName: tableName() });
    const nul: RunKey = { owner: 'a\u0000b', runId: 'c' };
    expect(await journal.read(nul)).toEqual([]);
    await journal.delete(nul);
    const error = await failureOf(journal.append(nul, [numbered('a', 0)], 0));
    expect(error).toMatchObject({ reason: 'store-failure', runId: 'c' });
    expect((error as Error).message).toMatch(/22021.*NUL character/);
  });

  it('deletes expired runs on sweep(), records and all', async () => {
    const table = tableName();
    const journal = new PostgresRunJournal({ pool, tableName: table, ttlMs: 1 });
    for (let i = 0; i < 3; i += 1) {
      await journal.append({ owner: 'o', runId: `r${i}` }, [numbered('a', 0), numbered('a', 1)], 0);
    }
    const live = new PostgresRunJournal({ pool, tableName: table });
    await live.append(key, [numbered('live', 0)], 0);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await journal.read({ owner: 'o', runId: 'r0' })).toEqual([]);
    expect(await journal.sweep()).toBe(3);
    const count = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`);
    expect(count.rows[0]?.n).toBe(1);
    expect(await journal.sweep()).toBe(0);
    expect(await live.read(key)).toEqual([numbered('live', 0)]);
  });

  it('counts an append whose reply was lost after it committed as done, once, when the retry finds its records', async () => {
    const table = tableName();
    const journal = new PostgresRunJournal({ pool, tableName: table });
    await journal.append(key, [numbered('a', 0)], 0);
    const lossy = new PostgresRunJournal({ pool: replyLostOnce(pool), tableName: table });
    expect(await lossy.append(key, [numbered('a', 1), numbered('a', 2)], 1)).toBe(3);
    expect(await journal.read(key)).toEqual([numbered('a', 0), numbered('a', 1), numbered('a', 2)]);
    // Another writer's records at that place are a conflict, not a success.
    await journal.append(key, [numbered('b', 3)], 3);
    const lossyAgain = new PostgresRunJournal({ pool: replyLostOnce(pool), tableName: table });
    await lossyAgain.read(key); // spends the lost reply on a read, which is retried as it is
    const conflict = new PostgresRunJournal({ pool: replyLostOnce(pool), tableName: table });
    const error = await failureOf(conflict.append(key, [numbered('c', 3)], 3));
    expect(error).toMatchObject({ reason: 'conflict' });
    expect(await journal.read(key)).toHaveLength(4);
  });

  const poolLike = { query: (): number => 0, connect: (): number => 0 };
  it.each([
    ['pool', {}],
    ['pool', { pool: {} }],
    ['tableName', { pool: poolLike, tableName: '1x' }],
    ['createTable', { pool: poolLike, createTable: 'yes' }],
    ['ttlMs', { pool: poolLike, ttlMs: 0 }],
  ])('rejects a bad %s with an InvalidOptionsError', (option, options) => {
    expect(() => new PostgresRunJournal(options as never)).toThrow(InvalidOptionsError);
    expect(() => new PostgresRunJournal(options as never)).toThrow(`"${option}"`);
  });

  it('keeps every append whole when two processes write one run at once, each in its order', async () => {
    const table = tableName();
    await runTwoJournalWriters('postgres', server.url, table, 25);
    const journal = new PostgresRunJournal({ pool, tableName: table });
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
    'keeps the run across a server restart and writes again on the pool’s new connections',
    async () => {
      const journal = new PostgresRunJournal({ pool, tableName: tableName() });
      await journal.append(key, [numbered('a', 0)], 0);
      await server.control?.stop('SIGQUIT');
      expect(await failureOf(journal.append(key, [numbered('a', 1)], 1))).toMatchObject({
        reason: 'store-failure',
      });
      await server.control?.start();
      expect(await journal.read(key)).toEqual([numbered('a', 0)]);
      expect(await journal.append(key, [numbered('a', 1)], 1)).toBe(2);
    },
    60_000,
  );
});
