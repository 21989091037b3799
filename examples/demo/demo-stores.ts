// The demo's shared stores: resumable streams on Redis when REDIS_URL is set, chat memory on
// PostgreSQL when DATABASE_URL is set; the embedded defaults (in-memory streams, SQLite)
// otherwise. With both set, several demo instances behind one load balancer share answers
// (resume and cancel on any instance) and conversations.
import pg from 'pg';
import { createClient } from 'redis';
import type { ChatMemoryRepository } from '../../lib/index.js';
import { PostgresChatMemoryRepository } from '../../lib/memory/postgres/index.js';
import { RedisResumableStreams } from '../../lib/sse/redis/index.js';

/** The environment variables {@link startDemoStores} reads. */
export interface DemoStoresEnv {
  readonly REDIS_URL?: string | undefined;
  readonly DATABASE_URL?: string | undefined;
  readonly [name: string]: string | undefined;
}

/** The stores the demo runs on; `undefined` ones are the embedded defaults. */
export interface DemoStores {
  /** Resumable streams on Redis, or `undefined` for the in-memory registry. */
  readonly streams: RedisResumableStreams | undefined;
  /** Chat memory on PostgreSQL, or `undefined` for SQLite under the data folder. */
  readonly chatMemoryRepository: ChatMemoryRepository | undefined;
  /** One line for the console: which stores, without credentials. */
  readonly description: string;
  /** Ends the streams this instance runs and closes the connections. */
  close(): Promise<void>;
}

/**
 * Connects the demo's shared stores from the environment: `REDIS_URL` → `RedisResumableStreams`
 * (ttl 30 s, as the in-memory default), `DATABASE_URL` → `PostgresChatMemoryRepository`.
 *
 * @example
 * ```ts
 * const stores = await startDemoStores({ REDIS_URL: 'redis://127.0.0.1:6379' });
 * const server = await startDemoServer({ streams: stores.streams });
 * ```
 * @param env The environment; default `process.env`.
 * @returns The connected stores.
 */
export async function startDemoStores(env: DemoStoresEnv = process.env): Promise<DemoStores> {
  const redisUrl = env.REDIS_URL || undefined;
  const databaseUrl = env.DATABASE_URL || undefined;
  const closers: Array<() => Promise<unknown>> = [];
  const close = async (): Promise<void> => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    let streams: RedisResumableStreams | undefined;
    if (redisUrl !== undefined) {
      // Without an error listener a dropped connection would crash the process; the client
      // reconnects by itself.
      const client = await createClient({ url: redisUrl })
        .on('error', (error: unknown) => console.error('redis:', String(error)))
        .connect();
      closers.push(() => client.quit());
      streams = new RedisResumableStreams({ client, ttl: 30_000, maxBufferedFrames: 4000 });
      const opened = streams;
      closers.push(() => opened.close());
    }
    let chatMemoryRepository: ChatMemoryRepository | undefined;
    if (databaseUrl !== undefined) {
      const pool = new pg.Pool({ connectionString: databaseUrl });
      pool.on('error', (error) => console.error('postgres:', String(error)));
      closers.push(() => pool.end());
      chatMemoryRepository = new PostgresChatMemoryRepository({ pool });
    }
    const description =
      `streams: ${streams === undefined ? 'in memory' : 'Redis'}, ` +
      `chat memory: ${chatMemoryRepository === undefined ? 'SQLite' : 'PostgreSQL'}`;
    return { streams, chatMemoryRepository, description, close };
  } catch (error) {
    await close();
    throw error;
  }
}
