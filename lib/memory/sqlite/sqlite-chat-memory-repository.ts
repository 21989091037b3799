import type BetterSqlite3 from 'better-sqlite3';
import type { Message } from '../../core/message.js';
import { ChatMemoryError, type ChatMemoryOperation } from '../../errors/chat-memory-error.js';
import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
import { appendTrimFrom, checkAppend, checkLimit, rejected } from '../append-window.js';
import type { ChatMemoryRepository } from '../chat-memory-repository.js';
import { fromRow, toRow, type MessageRow } from './message-row.js';
import { DEFAULT_MAX_MEDIA_BYTES } from '../stored-media.js';
import { sqliteFailure } from './sqlite-failure.js';

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

interface Statements {
  ids: BetterSqlite3.Statement<[], { conversation_id: string }>;
  select: BetterSqlite3.Statement<[string], MessageRow>;
  remove: BetterSqlite3.Statement<[string]>;
  replace: (conversationId: string, messages: readonly Message[]) => void;
  append: (conversationId: string, messages: readonly Message[], keepLast?: number) => void;
  findLast: (conversationId: string, limit: number) => MessageRow[];
}

type Bounds = [conversationId: string, from: number, to: number];

interface Cut {
  id: string;
  cut: number;
  end: number;
}

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * A {@link ChatMemoryRepository} in SQLite through better-sqlite3: the embedded,
 * persistent default. Every role is stored with its tool calls, tool results and ids,
 * ordered by position; `saveAll` replaces a conversation in one transaction, so a turn
 * is stored whole or not at all. The table is created on first use, and the database
 * switched to WAL (readers never wait for the writer). Failures (a locked, corrupt or
 * read-only database) reject with a `ChatMemoryError` carrying the SQLite code.
 *
 * better-sqlite3 is synchronous: each operation runs to its end before the returned
 * Promise settles, and only ever touches one conversation's rows.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * import { MessageChatMemoryAdvisor, MessageWindowChatMemory } from 'rx-advisors';
 * import { SqliteChatMemoryRepository } from 'rx-advisors/memory/sqlite';
 *
 * const database = new Database('chat-memory.db');
 * const repository = new SqliteChatMemoryRepository({ database });
 * const advisor = new MessageChatMemoryAdvisor({
 *   chatMemory: new MessageWindowChatMemory({ maxMessages: 40, repository }),
 * });
 * process.on('exit', () => database.close());
 * ```
 */
export class SqliteChatMemoryRepository implements ChatMemoryRepository {
  /** The table that holds the messages. */
  readonly tableName: string;
  /** The most inline media bytes one message may carry. */
  readonly maxMediaBytes: number;
  private readonly database: BetterSqlite3.Database;
  private statements: Statements | undefined;

  /** @param options The database and, optionally, the table name. */
  constructor(options: SqliteChatMemoryRepositoryOptions) {
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
    this.database = given;
    this.tableName = tableName;
    this.maxMediaBytes = maxMediaBytes;
  }

  /** @returns Every stored conversation id, sorted. */
  findConversationIds(): Promise<string[]> {
    return this.run('list', undefined, (s) => s.ids.all().map((row) => row.conversation_id));
  }

  /**
   * @param conversationId The conversation to read.
   * @returns Its messages in saved order; an empty array when there are none.
   */
  findByConversationId(conversationId: string): Promise<Message[]> {
    return this.run('read', conversationId, (s) =>
      this.decode(conversationId, s.select.all(conversationId)),
    );
  }

  /**
   * Replaces a conversation in one immediate transaction.
   * @param conversationId The conversation to write.
   * @param messages Its complete new content.
   * @returns A Promise that resolves once the transaction committed.
   */
  saveAll(conversationId: string, messages: readonly Message[]): Promise<void> {
    return this.run('write', conversationId, (s) => s.replace(conversationId, messages));
  }

  /**
   * Adds messages after the last one and trims the conversation to `keepLast` on a turn
   * boundary (see `ChatMemoryRepository.append`), in one immediate transaction that
   * touches only the added rows, the dropped ones and the index entries in between.
   * @param conversationId The conversation to append to.
   * @param messages The messages to add; none of them a system message.
   * @param options `keepLast`: the window, system messages included.
   * @returns A Promise that resolves once the transaction committed.
   */
  append(
    conversationId: string,
    messages: readonly Message[],
    options?: { keepLast?: number },
  ): Promise<void> {
    let keepLast: number | undefined;
    try {
      keepLast = checkAppend(messages, options);
    } catch (error) {
      return rejected(error);
    }
    return this.run('write', conversationId, (s) => {
      if (messages.length > 0) s.append(conversationId, messages, keepLast);
    });
  }

  /**
   * @param conversationId The conversation to read.
   * @param limit How many of the newest messages after the leading system ones to return.
   * @returns The leading system messages and those newest ones, in saved order.
   */
  findLast(conversationId: string, limit: number): Promise<Message[]> {
    let newest: number;
    try {
      newest = checkLimit(limit);
    } catch (error) {
      return rejected(error);
    }
    return this.run('read', conversationId, (s) =>
      this.decode(conversationId, s.findLast(conversationId, newest)),
    );
  }

  /**
   * @param conversationId The conversation to delete.
   * @returns A Promise that resolves once the rows are gone.
   */
  deleteByConversationId(conversationId: string): Promise<void> {
    return this.run('delete', conversationId, (s) => {
      s.remove.run(conversationId);
    });
  }

  private decode(conversationId: string, rows: MessageRow[]): Message[] {
    return rows.map((row, index) => {
      const message = fromRow(row);
      if (typeof message !== 'string') return message;
      throw new ChatMemoryError({
        operation: 'read',
        conversationId,
        reason: `message ${index} in table ${this.tableName} is damaged (${message}); fix or delete the row.`,
      });
    });
  }

  private run<T>(
    operation: ChatMemoryOperation,
    conversationId: string | undefined,
    work: (statements: Statements) => T,
  ): Promise<T> {
    try {
      if (!this.database.open) {
        throw new ChatMemoryError({
          operation,
          ...(conversationId === undefined ? {} : { conversationId }),
          reason: `the better-sqlite3 database ${JSON.stringify(this.database.name)} is closed. Give the repository an open Database.`,
        });
      }
      return Promise.resolve(work(this.prepared()));
    } catch (error) {
      return Promise.reject(sqliteFailure(error, operation, conversationId, this.database.name));
    }
  }

  /** Creates the table on first use; a failed attempt (locked, corrupt) is tried again next time. */
  private prepared(): Statements {
    if (this.statements !== undefined) return this.statements;
    const db = this.database;
    const table = `"${this.tableName}"`;
    if (!db.memory && !db.readonly) db.pragma('journal_mode = WAL');
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (
        conversation_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
        content TEXT NOT NULL,
        tool_calls TEXT,
        reasoning TEXT,
        tool_call_id TEXT,
        tool_name TEXT,
        is_error INTEGER,
        media TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (conversation_id, position)
      ) WITHOUT ROWID`,
    );
    addMediaColumn(db, table);
    const remove = db.prepare<[string]>(`DELETE FROM ${table} WHERE conversation_id = ?`);
    const insert = db.prepare<[string, number, number, MessageRow]>(
      `INSERT INTO ${table} (conversation_id, position, created_at, role, content, tool_calls,
         reasoning, tool_call_id, tool_name, is_error, media)
       VALUES (?, ?, ?, @role, @content, @tool_calls, @reasoning, @tool_call_id, @tool_name,
         @is_error, @media)`,
    );
    const replace = db.transaction((conversationId: string, messages: readonly Message[]) => {
      remove.run(conversationId);
      const now = Date.now();
      messages.forEach((message, position) => {
        const limits = { conversationId, position, maxMediaBytes: this.maxMediaBytes };
        insert.run(conversationId, position, now, toRow(message, limits));
      });
    });
    const columns = `role, content, tool_calls, reasoning, tool_call_id, tool_name, is_error, media`;
    const at = (sql: string) => db.prepare<[string, ...number[]], { position: number }>(sql);
    // Positions: saveAll writes 0…n-1 (a memory writes system messages first), append
    // writes after the last, and the trim deletes the oldest non-system ones: the
    // non-system rows are always one run of consecutive positions.
    const lastPosition = at(
      `SELECT max(position) AS position FROM ${table} WHERE conversation_id = ?`,
    );
    const firstOther = at(
      `SELECT position FROM ${table} WHERE conversation_id = ? AND role <> 'system'
       ORDER BY position LIMIT 1`,
    );
    const countBefore = db.prepare<[string, number], { n: number }>(
      `SELECT count(*) AS n FROM ${table} WHERE conversation_id = ? AND position < ?`,
    );
    // The window's first message: a user message at or after the cut, else one that is
    // not a tool result, else none (the end). Each is one index range scan from the cut.
    const windowStart = db.prepare<[Cut], { position: number }>(
      `SELECT coalesce(
         (SELECT position FROM ${table} WHERE conversation_id = @id AND position >= @cut
            AND role = 'user' ORDER BY position LIMIT 1),
         (SELECT position FROM ${table} WHERE conversation_id = @id AND position >= @cut
            AND role <> 'tool' ORDER BY position LIMIT 1),
         @end) AS position`,
    );
    const dropRange = db.prepare<Bounds>(
      `DELETE FROM ${table} WHERE conversation_id = ? AND position >= ? AND position < ?`,
    );
    const systemsBefore = db.prepare<[string, number], MessageRow>(
      `SELECT ${columns} FROM ${table} WHERE conversation_id = ? AND position < ? ORDER BY position`,
    );
    const newestFrom = db.prepare<[string, number, number], MessageRow>(
      `SELECT ${columns} FROM ${table} WHERE conversation_id = ? AND position >= ?
       ORDER BY position DESC LIMIT ?`,
    );
    const append = db.transaction(
      (conversationId: string, messages: readonly Message[], keepLast?: number) => {
        const last = lastPosition.get(conversationId)?.position ?? -1;
        const now = Date.now();
        messages.forEach((message, index) => {
          const limits = { conversationId, position: index, maxMediaBytes: this.maxMediaBytes };
          insert.run(conversationId, last + 1 + index, now, toRow(message, limits));
        });
        const end = last + messages.length;
        const first = firstOther.get(conversationId)?.position ?? end + 1;
        const systems = countBefore.get(conversationId, first)?.n ?? 0;
        const from = appendTrimFrom(systems, end - first + 1, keepLast);
        if (from === undefined) return;
        const start =
          windowStart.get({ id: conversationId, cut: first + from, end: end + 1 })?.position ??
          end + 1;
        dropRange.run(conversationId, first, start);
      },
    );
    const findLast = db.transaction((conversationId: string, limit: number): MessageRow[] => {
      const first = firstOther.get(conversationId)?.position;
      if (first === undefined) return systemsBefore.all(conversationId, Number.MAX_SAFE_INTEGER);
      const newest = limit === 0 ? [] : newestFrom.all(conversationId, first, limit).reverse();
      return [...systemsBefore.all(conversationId, first), ...newest];
    });
    this.statements = {
      ids: db.prepare<[], { conversation_id: string }>(
        `SELECT DISTINCT conversation_id FROM ${table} ORDER BY conversation_id`,
      ),
      select: db.prepare<[string], MessageRow>(
        `SELECT role, content, tool_calls, reasoning, tool_call_id, tool_name, is_error, media
         FROM ${table} WHERE conversation_id = ? ORDER BY position`,
      ),
      remove,
      // IMMEDIATE takes the write lock up front, so a busy database fails before any change.
      replace: (conversationId, messages) => replace.immediate(conversationId, messages),
      append: (conversationId, messages, keepLast) =>
        append.immediate(conversationId, messages, keepLast),
      // One read transaction: the system rows and the newest ones from the same snapshot.
      findLast: (conversationId, limit) => findLast.deferred(conversationId, limit),
    };
    return this.statements;
  }
}

/**
 * Tables created before media were stored lack the `media` column: it is added (a
 * read-only database is left as it is, and fails on the first query that needs it).
 */
function addMediaColumn(db: BetterSqlite3.Database, table: string): void {
  const columns = db.prepare<[], { name: string }>(`PRAGMA table_info(${table})`).all();
  if (db.readonly || columns.some((column) => column.name === 'media')) return;
  db.exec(`ALTER TABLE ${table} ADD COLUMN media TEXT`);
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
