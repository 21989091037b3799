import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createClient } from 'redis';
import { InMemoryChatMemoryRepository, type ChatMemoryRepository } from 'rx-advisors';
import { PostgresChatMemoryRepository } from 'rx-advisors/memory/postgres';
import { RedisChatMemoryRepository } from 'rx-advisors/memory/redis';
import { SqliteChatMemoryRepository } from 'rx-advisors/memory/sqlite';
import {
  postgresPlan,
  redisPlan,
  type StoreServer,
} from '../../spec/support/servers/store-servers.js';

/** A repository W8 measures, open; `close()` releases it and its server. */
export interface OpenRepository {
  readonly repository: ChatMemoryRepository;
  /**
   * The store's floor for an append: the cheapest durable write of a turn's two rows the
   * same client can make (no read, no trim, no lock), against a scratch key or table.
   */
  readonly floor?: { label: string; write(rows: readonly string[]): Promise<void> };
  close(): Promise<void>;
}

/** How W8 gets one kind of repository. */
export interface RepositoryAdapter {
  /** `in-memory`, `sqlite`, `redis`, `postgres`. */
  readonly name: string;
  /** What it runs on. */
  readonly label: string;
  open(): Promise<OpenRepository>;
}

const inMemory: RepositoryAdapter = {
  name: 'in-memory',
  label: 'InMemoryChatMemoryRepository',
  open: () =>
    Promise.resolve({
      repository: new InMemoryChatMemoryRepository(),
      close: () => Promise.resolve(),
    }),
};

/** SQLite in a temporary file (WAL, as the repository sets it), not `:memory:`: a real disk write. */
const sqlite: RepositoryAdapter = {
  name: 'sqlite',
  label: 'SqliteChatMemoryRepository, better-sqlite3, a file in the temp folder (WAL)',
  open() {
    const folder = mkdtempSync(join(tmpdir(), 'rx-w8-'));
    const database = new Database(join(folder, 'memory.db'));
    database.exec('CREATE TABLE IF NOT EXISTS w8_floor (n INTEGER PRIMARY KEY, row TEXT)');
    const insert = database.prepare<[string]>('INSERT INTO w8_floor (row) VALUES (?)');
    const write = database.transaction((rows: readonly string[]) => {
      for (const row of rows) insert.run(row);
    });
    return Promise.resolve({
      repository: new SqliteChatMemoryRepository({ database }),
      floor: {
        label: 'one IMMEDIATE transaction of two INSERTs (WAL, same file)',
        write: (rows) => Promise.resolve(write.immediate(rows)),
      },
      close: () => {
        database.close();
        rmSync(folder, { recursive: true, force: true });
        return Promise.resolve();
      },
    });
  },
};

/** The server of a plan: REDIS_URL / DATABASE_URL, or a private one (spec/support/servers). */
async function server(plan: ReturnType<typeof redisPlan>, kind: string): Promise<StoreServer> {
  if (!plan.available) throw new Error(`W8 ${kind}: no server (${plan.reason})`);
  return plan.start();
}

/**
 * Redis through `RedisChatMemoryRepository`. `fsync` is the server's `appendfsync`: `always`
 * is the spec harness's private server (an `fsync` of the append-only file before every
 * reply: every write, the floor's too, waits for the disk); `everysec` is Redis's default
 * once the append-only file is on (the file is synced by a background thread once a
 * second: what a user of a default-configured server sees), set by `CONFIG SET` on the
 * private server only (a `REDIS_URL` server is measured as it is).
 */
function redisAdapter(fsync: 'always' | 'everysec'): RepositoryAdapter {
  // As redisPlan decides (a private server unless REDIS_URL is set), without its look-up.
  const own = !process.env['REDIS_URL'];
  return {
    name: fsync === 'always' ? 'redis' : 'redis-everysec',
    label: `RedisChatMemoryRepository, node-redis 5, redis-server on loopback (${
      own ? `appendfsync ${fsync}` : 'REDIS_URL, as configured'
    })`,
    async open() {
      const plan = redisPlan();
      const store = await server(plan, 'Redis');
      const client = createClient({ url: store.url });
      client.on('error', () => undefined);
      await client.connect();
      if (plan.ownsProcess) await client.configSet('appendfsync', fsync);
      return {
        repository: new RedisChatMemoryRepository({ client, keyPrefix: 'w8:' }),
        floor: {
          label: 'one bare RPUSH of the two rows (one command, one round trip)',
          write: async (rows) => {
            await client.rPush('w8-floor', [...rows]);
          },
        },
        close: async () => {
          await client.quit();
          await store.dispose();
        },
      };
    },
  };
}

const postgres: RepositoryAdapter = {
  name: 'postgres',
  label: 'PostgresChatMemoryRepository, pg Pool, PostgreSQL on loopback',
  async open() {
    const store = await server(postgresPlan(), 'PostgreSQL');
    const pool = new pg.Pool({ connectionString: store.url, max: 4 });
    pool.on('error', () => undefined);
    await pool.query('CREATE TABLE IF NOT EXISTS w8_floor (n SERIAL PRIMARY KEY, row TEXT)');
    return {
      repository: new PostgresChatMemoryRepository({ pool, tableName: 'w8_chat_memory' }),
      floor: {
        label: 'one INSERT of the two rows, its own transaction (autocommit, one round trip)',
        write: async (rows) => {
          await pool.query('INSERT INTO w8_floor (row) SELECT unnest($1::text[])', [rows]);
        },
      },
      close: async () => {
        await pool.end();
        await store.dispose();
      },
    };
  },
};

/** Every memory repository, in the order W8 runs them. */
export const W8_REPOSITORIES: readonly RepositoryAdapter[] = [
  inMemory,
  sqlite,
  redisAdapter('always'),
  redisAdapter('everysec'),
  postgres,
];
