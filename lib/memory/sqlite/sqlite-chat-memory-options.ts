import type BetterSqlite3 from 'better-sqlite3';
import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
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

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * Checks {@link SqliteChatMemoryRepositoryOptions} and fills in the defaults.
 * @internal
 * @throws InvalidOptionsError on the first bad option.
 */
export function checkSqliteOptions(
  options: SqliteChatMemoryRepositoryOptions,
): Required<SqliteChatMemoryRepositoryOptions> {
  const {
    database,
    tableName = 'rx_advisors_chat_memory',
    maxMediaBytes = DEFAULT_MAX_MEDIA_BYTES,
  } = options ?? {};
  const given: unknown = database;
  if (!isDatabase(given)) {
    throw new InvalidOptionsError({
      option: 'database',
      value: given,
      expected:
        "an open better-sqlite3 Database (import Database from 'better-sqlite3'; new Database('chat.db'))",
    });
  }
  if (typeof tableName !== 'string' || !TABLE_NAME.test(tableName)) {
    throw new InvalidOptionsError({
      option: 'tableName',
      value: tableName,
      expected: 'a SQL identifier: letters, digits and underscores, not starting with a digit',
    });
  }
  if (!Number.isSafeInteger(maxMediaBytes) || maxMediaBytes < 0) {
    throw new InvalidOptionsError({
      option: 'maxMediaBytes',
      value: maxMediaBytes,
      expected: 'an integer of at least 0 (bytes of inline media per message)',
    });
  }
  return { database: given, tableName, maxMediaBytes };
}

function isDatabase(value: unknown): value is BetterSqlite3.Database {
  if (typeof value !== 'object' || value === null) return false;
  const db = value as Record<string, unknown>;
  return (
    typeof db['prepare'] === 'function' &&
    typeof db['transaction'] === 'function' &&
    typeof db['pragma'] === 'function'
  );
}
