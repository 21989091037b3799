import type { Pool, PoolClient } from 'pg';
import type { Message } from '../../core/message.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import { ChatMemoryError, type ChatMemoryOperation } from '../../errors/chat-memory-error.js';
import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
import { appendTrimFrom, checkAppend, checkLimit, rejected } from '../append-window.js';
import type { ChatMemoryRepository } from '../chat-memory-repository.js';
import { fromRow, toRow, type MessageRow } from '../sqlite/message-row.js';
import { DEFAULT_MAX_MEDIA_BYTES } from '../stored-media.js';
import { postgresFailure } from './postgres-failure.js';
import { postgresSchemaSql, postgresStatements } from './postgres-schema.js';

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
}

const POSTGRES_CHAT_MEMORY_DEFAULTS = {
  tableName: 'rx_advisors_chat_memory',
  createTable: true,
  maxMediaBytes: DEFAULT_MAX_MEDIA_BYTES,
} as const;

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

const POSTGRES_CHAT_MEMORY_RULES = {
  pool: Rules.custom(
    "a pg Pool (import pg from 'pg'; new pg.Pool({ connectionString }))",
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as Record<string, unknown>)['query'] === 'function' &&
      typeof (value as Record<string, unknown>)['connect'] === 'function',
  ),
  tableName: Rules.custom(
    'a SQL identifier: letters, digits and underscores, not starting with a digit',
    (value) => typeof value === 'string' && TABLE_NAME.test(value),
  ),
  createTable: Rules.boolean,
  maxMediaBytes: Rules.integer(0),
} as const satisfies OptionRules<PostgresChatMemoryRepositoryOptions>;

/**
 * A {@link ChatMemoryRepository} in PostgreSQL over `pg`, shared by every instance of a
 * chat backend. One row per message (every role, tool calls and reasoning as JSONB, tool
 * results with their call id), keyed by (conversation, position): that primary key is the
 * index that makes reading one conversation one range scan. Every write is one
 * transaction holding a per-conversation advisory lock, so a turn is stored whole or not
 * at all, and `update` (which `MessageWindowChatMemory` appends through) queues writers of
 * one conversation across processes: two instances appending at once both keep their
 * turn, one after the other. The table is created on first use (or by a migration from
 * {@link PostgresChatMemoryRepository.schemaSql}). Failures reject with a `ChatMemoryError`
 * carrying the SQLSTATE or connection error code.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { MessageChatMemoryAdvisor, MessageWindowChatMemory } from 'rx-advisors';
 * import { PostgresChatMemoryRepository } from 'rx-advisors/memory/postgres';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * pool.on('error', (error) => console.error('postgres', error)); // an idle client lost its server
 * const chatMemory = new MessageWindowChatMemory({
 *   maxMessages: 40,
 *   repository: new PostgresChatMemoryRepository({ pool }),
 * });
 * const advisor = new MessageChatMemoryAdvisor({ chatMemory });
 * ```
 */
export class PostgresChatMemoryRepository implements ChatMemoryRepository {
  /** The table that holds the messages. */
  readonly tableName: string;
  private readonly pool: Pool;
  private readonly createTable: boolean;
  private readonly maxMediaBytes: number;
  private readonly sql: ReturnType<typeof postgresStatements>;
  private schema: Promise<void> | undefined;

  /** @param options The pool and, optionally, the table name. */
  constructor(options: PostgresChatMemoryRepositoryOptions) {
    const given = validateOptions(options, POSTGRES_CHAT_MEMORY_RULES);
    if (given.pool === undefined) {
      throw new InvalidOptionsError({
        option: 'pool',
        value: undefined,
        expected: POSTGRES_CHAT_MEMORY_RULES.pool.expected,
      });
    }
    const merged = withDefaults(POSTGRES_CHAT_MEMORY_DEFAULTS, given);
    this.pool = given.pool;
    this.tableName = merged.tableName;
    this.createTable = merged.createTable;
    this.maxMediaBytes = merged.maxMediaBytes;
    this.sql = postgresStatements(this.tableName);
  }

  /**
   * The DDL of the table, for a migration tool.
   * @param tableName The table; default `rx_advisors_chat_memory`.
   * @returns One `CREATE TABLE IF NOT EXISTS` statement.
   */
  static schemaSql(tableName: string = POSTGRES_CHAT_MEMORY_DEFAULTS.tableName): string {
    if (!TABLE_NAME.test(tableName)) {
      throw new InvalidOptionsError({
        option: 'tableName',
        value: tableName,
        expected: POSTGRES_CHAT_MEMORY_RULES.tableName.expected,
      });
    }
    return postgresSchemaSql(tableName);
  }

  /** @returns Every stored conversation id, sorted. */
  findConversationIds(): Promise<string[]> {
    return this.run('list', undefined, async () => {
      const result = await this.pool.query<{ conversation_id: string }>(this.sql.ids);
      return result.rows.map((row) => row.conversation_id);
    });
  }

  /**
   * @param conversationId The conversation to read.
   * @returns Its messages in saved order; an empty array when there are none.
   */
  findByConversationId(conversationId: string): Promise<Message[]> {
    return this.run('read', conversationId, async () => {
      const result = await this.pool.query<MessageRow>(this.sql.select, [conversationId]);
      return this.decode(conversationId, result.rows);
    });
  }

  /**
   * Replaces a conversation in one transaction.
   * @param conversationId The conversation to write.
   * @param messages Its complete new content.
   * @returns A Promise that resolves once the transaction committed.
   */
  saveAll(conversationId: string, messages: readonly Message[]): Promise<void> {
    return this.transaction('write', conversationId, async (client) => {
      await this.replace(client, conversationId, messages);
    });
  }

  /**
   * Reads, changes and writes a conversation in one transaction that holds the
   * conversation's advisory lock: writers in other processes wait their turn.
   * @param conversationId The conversation to change.
   * @param change From the stored messages to the new complete content.
   * @returns A Promise that resolves once the transaction committed.
   */
  update(conversationId: string, change: (stored: Message[]) => readonly Message[]): Promise<void> {
    return this.transaction('write', conversationId, async (client) => {
      const result = await client.query<MessageRow>(this.sql.select, [conversationId]);
      await this.replace(client, conversationId, change(this.decode(conversationId, result.rows)));
    });
  }

  /**
   * Adds messages after the last one and trims the conversation to `keepLast` on a turn
   * boundary (see `ChatMemoryRepository.append`), in one transaction holding the
   * conversation's advisory lock: it touches the added rows and the dropped ones, found
   * through the primary key, never the rest of the conversation.
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
    if (messages.length === 0) return Promise.resolve();
    return this.transaction('write', conversationId, async (client) => {
      type Bounds = { last: number | null; first: number | null; systems: number };
      const before = (await client.query<Bounds>(this.sql.bounds, [conversationId])).rows[0];
      const last = before?.last ?? -1;
      await this.insert(client, conversationId, messages, last + 1);
      const end = last + messages.length;
      const first = before?.first ?? last + 1;
      const from = appendTrimFrom(before?.systems ?? 0, end - first + 1, keepLast);
      if (from === undefined) return;
      const found = await client.query<{ position: number }>(this.sql.windowStart, [
        conversationId,
        first + from,
        end + 1,
      ]);
      const start = found.rows[0]?.position ?? end + 1;
      await client.query(this.sql.dropRange, [conversationId, first, start]);
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
    return this.run('read', conversationId, async () => {
      const result = await this.pool.query<MessageRow>(this.sql.findLast, [conversationId, newest]);
      return this.decode(conversationId, result.rows);
    });
  }

  /**
   * @param conversationId The conversation to delete.
   * @returns A Promise that resolves once the rows are gone.
   */
  deleteByConversationId(conversationId: string): Promise<void> {
    return this.transaction('delete', conversationId, async (client) => {
      await client.query(this.sql.remove, [conversationId]);
    });
  }

  private async replace(
    client: PoolClient,
    conversationId: string,
    messages: readonly Message[],
  ): Promise<void> {
    await client.query(this.sql.remove, [conversationId]);
    await this.insert(client, conversationId, messages, 0);
  }

  /** Inserts `messages` at positions `from`, `from + 1`… in one statement. */
  private async insert(
    client: PoolClient,
    conversationId: string,
    messages: readonly Message[],
    from: number,
  ): Promise<void> {
    if (messages.length === 0) return;
    const rows = messages.map((message, position) =>
      toRow(message, { conversationId, position, maxMediaBytes: this.maxMediaBytes }),
    );
    await client.query(this.sql.insert, [
      conversationId,
      rows.map((_, index) => from + index),
      rows.map((row) => row.role),
      rows.map((row) => row.content),
      rows.map((row) => row.tool_calls),
      rows.map((row) => row.reasoning),
      rows.map((row) => row.tool_call_id),
      rows.map((row) => row.tool_name),
      rows.map((row) => (row.is_error === null ? null : row.is_error === 1)),
      rows.map((row) => row.media),
    ]);
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

  /** One transaction on one pooled connection, holding the conversation's lock. */
  private transaction(
    operation: ChatMemoryOperation,
    conversationId: string,
    work: (client: PoolClient) => Promise<void>,
  ): Promise<void> {
    return this.run(operation, conversationId, async () => {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      // The server may go away between two queries: without a listener, the client's
      // 'error' event would crash the process.
      const onError = (error: Error) => (broken = error);
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        await client.query(this.sql.lock, [`${this.tableName}:${conversationId}`]);
        await work(client);
        await client.query('COMMIT');
      } catch (error) {
        broken = error instanceof Error ? error : new Error(String(error));
        // A lost connection cannot roll back; the server drops the transaction anyway.
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', onError);
        // A client whose transaction failed is discarded, never reused half-way.
        client.release(broken);
      }
    });
  }

  private async run<T>(
    operation: ChatMemoryOperation,
    conversationId: string | undefined,
    work: () => Promise<T>,
  ): Promise<T> {
    try {
      await this.ensureSchema();
      return await work();
    } catch (error) {
      throw postgresFailure(error, operation, conversationId);
    }
  }

  /** Creates the table once per repository; a failed attempt is tried again next time. */
  private ensureSchema(): Promise<void> {
    if (!this.createTable) return Promise.resolve();
    this.schema ??= (async () => {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      try {
        // Two processes creating the table at once would race in the catalog: take turns.
        await client.query('BEGIN');
        await client.query(this.sql.lock, [`rx-advisors-schema:${this.tableName}`]);
        await client.query(postgresSchemaSql(this.tableName));
        await client.query('COMMIT');
      } catch (error) {
        broken = error instanceof Error ? error : new Error(String(error));
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release(broken);
      }
    })().catch((error: unknown) => {
      this.schema = undefined;
      throw error;
    });
    return this.schema;
  }
}
