import type { Pool } from 'pg';
import { Rules, type OptionRules } from '../../core/validate-options.js';
import { postgresStoreRules } from '../../postgres/postgres-store-rules.js';
import { DEFAULT_MAX_MEDIA_BYTES } from '../stored-media.js';

/**
 * Options of {@link PostgresChatMemoryRepository}.
 * @example
 * ```ts
 * import pg from 'pg';
 * import type { PostgresChatMemoryRepositoryOptions } from 'rx-advisors/memory/postgres';
 * const options: PostgresChatMemoryRepositoryOptions = {
 *   pool: new pg.Pool({ connectionString: process.env.DATABASE_URL }),
 *   tableName: 'support_chat_memory',
 * };
 * ```
 */
export interface PostgresChatMemoryRepositoryOptions {
  /** A `pg` Pool. The application creates and ends it (and listens to its `error` event). */
  pool: Pool;
  /** The table that holds the messages; default `rx_advisors_chat_memory`. */
  tableName?: string;
  /** Create the table on first use (default `true`); `false` when a migration creates it from {@link PostgresChatMemoryRepository.schemaSql}. */
  createTable?: boolean;
  /**
   * The most inline media (images and files given as base64 or bytes, decoded) one message
   * may carry, in bytes; default 5 MiB. A larger message fails the write with a
   * `ChatMemoryMediaLimitError`.
   */
  maxMediaBytes?: number;
  /**
   * How many ids of its newest appends each conversation keeps (in the `<table>_append_ids`
   * table), default 32, from 1 to 1,000. An `append` whose reply a dropped connection lost
   * is sent again, and writes nothing if its first attempt committed: that holds while
   * fewer than this many other appends to the same conversation committed in between.
   */
  appendIdsKept?: number;
}

/**
 * The defaults of {@link PostgresChatMemoryRepositoryOptions}.
 * @internal
 */
export const POSTGRES_CHAT_MEMORY_DEFAULTS = {
  tableName: 'rx_advisors_chat_memory',
  createTable: true,
  maxMediaBytes: DEFAULT_MAX_MEDIA_BYTES,
  appendIdsKept: 32,
} as const;

/**
 * The checks of {@link PostgresChatMemoryRepositoryOptions}.
 * @internal
 */
export const POSTGRES_CHAT_MEMORY_RULES = {
  // The table name: a plain SQL identifier of at most 63 characters (PostgreSQL's limit).
  ...postgresStoreRules(63),
  maxMediaBytes: Rules.integer(0),
  appendIdsKept: Rules.integer(1, 1000),
} as const satisfies OptionRules<PostgresChatMemoryRepositoryOptions>;
