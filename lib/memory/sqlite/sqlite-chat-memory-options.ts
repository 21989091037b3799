import type BetterSqlite3 from 'better-sqlite3';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import { isSqliteDatabase } from '../../sqlite/is-sqlite-database.js';
import { DEFAULT_MAX_MEDIA_BYTES } from '../stored-media.js';

/**
 * Options of {@link SqliteChatMemoryRepository}.
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * import type { SqliteChatMemoryRepositoryOptions } from 'rx-advisors/memory/sqlite';
 * const options: SqliteChatMemoryRepositoryOptions = {
 *   database: new Database('app.db', { timeout: 5000 }),
 *   tableName: 'support_chat_memory',
 * };
 * ```
 */
export interface SqliteChatMemoryRepositoryOptions {
  /**
   * An open better-sqlite3 database. The application opens it (file, busy `timeout`,
   * read-only…) and closes it; the repository never does either.
   */
  database: BetterSqlite3.Database;
  /** The table that holds the messages; default `rx_advisors_chat_memory`. */
  tableName?: string;
  /**
   * The most inline media (images and files given as base64 or bytes, decoded) one message
   * may carry, in bytes; default 5 MiB. Media are stored inline in the row, so this bounds
   * the row; a larger message fails the write with a `ChatMemoryMediaLimitError`.
   */
  maxMediaBytes?: number;
}

const SQLITE_DEFAULTS = {
  tableName: 'rx_advisors_chat_memory',
  maxMediaBytes: DEFAULT_MAX_MEDIA_BYTES,
} as const;

const SQLITE_RULES = {
  database: Rules.required(
    Rules.custom(
      "an open better-sqlite3 Database (import Database from 'better-sqlite3'; new Database('chat.db'))",
      (value) => isSqliteDatabase(value, 'pragma'),
    ),
  ),
  tableName: Rules.sqlIdentifier(63),
  maxMediaBytes: Rules.custom(
    'an integer of at least 0 (bytes of inline media per message)',
    (value) => Number.isSafeInteger(value) && (value as number) >= 0,
  ),
} as const satisfies OptionRules<SqliteChatMemoryRepositoryOptions>;

/**
 * Checks {@link SqliteChatMemoryRepositoryOptions} and fills in the defaults.
 * @internal
 * @throws InvalidOptionsError on the first bad option.
 */
export function checkSqliteOptions(
  options: SqliteChatMemoryRepositoryOptions,
): Required<SqliteChatMemoryRepositoryOptions> {
  return withDefaults(SQLITE_DEFAULTS, validateOptions(options, SQLITE_RULES));
}
