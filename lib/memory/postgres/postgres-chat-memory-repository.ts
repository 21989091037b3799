import type { ClientBase, Pool, QueryResultRow } from 'pg';
import type { Message } from '../../core/message.js';
import { validateOptions, withDefaults } from '../../core/validate-options.js';
import type { ChatMemoryOperation } from '../../errors/chat-memory-error.js';
import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
import { appendChecked, findLastChecked } from '../append-window.js';
import type { ChatMemoryRepository } from '../chat-memory-repository.js';
import { decodeTableRows } from '../decode-table-rows.js';
import type { MessageRow } from '../message-row.js';
import {
  POSTGRES_CHAT_MEMORY_DEFAULTS,
  POSTGRES_CHAT_MEMORY_RULES,
  type PostgresChatMemoryRepositoryOptions,
} from './postgres-chat-memory-options.js';
import { queryRetryingOnDrop } from './postgres-connection.js';
import { postgresFailure } from './postgres-failure.js';
import { appendIdsLookup, PostgresAppend } from './postgres-append.js';
import { insertRows, type PostgresRowWriter } from './postgres-message-rows.js';
import { postgresSchemaSql, postgresStatements } from './postgres-schema.js';
import { lockedTransaction } from './postgres-transaction.js';

export type { PostgresChatMemoryRepositoryOptions } from './postgres-chat-memory-options.js';

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
  private readonly writer: PostgresRowWriter;
  private readonly sql: ReturnType<typeof postgresStatements>;
  private schema: Promise<void> | undefined;
  private readonly hasAppendIds: (client: ClientBase) => Promise<boolean>;
  private readonly appender: PostgresAppend;

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
    this.sql = postgresStatements(this.tableName);
    this.writer = {
      sql: this.sql,
      maxMediaBytes: merged.maxMediaBytes,
      appendIdsKept: merged.appendIdsKept,
    };
    this.hasAppendIds = appendIdsLookup(this.sql, this.tableName, this.createTable);
    this.appender = new PostgresAppend(
      this.writer,
      (id, values) =>
        this.run('write', id, async () => {
          await queryRetryingOnDrop(this.pool, this.sql.append, values);
        }),
      (id, work) => this.transaction('write', id, work),
      (id) => this.lockKey(id),
    );
  }

  /**
   * The DDL of the table, of its append ids table (`<table>_append_ids`, what a retried
   * append checks) and of its append function (`<table>_append`, the one statement of an
   * `append`), for a migration tool; safe to run again (`IF NOT EXISTS`, `OR REPLACE`), and
   * it upgrades what an earlier version's script created.
   * @param tableName The table; default `rx_advisors_chat_memory`.
   * @returns The statements, as one script.
   */
  static schemaSql(tableName: string = POSTGRES_CHAT_MEMORY_DEFAULTS.tableName): string {
    if (!POSTGRES_CHAT_MEMORY_RULES.tableName.test(tableName)) {
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
      const result = await this.query<{ conversation_id: string }>(this.sql.ids);
      return result.rows.map((row) => row.conversation_id);
    });
  }

  /**
   * @param conversationId The conversation to read.
   * @returns Its messages in saved order; an empty array when there are none.
   */
  findByConversationId(conversationId: string): Promise<Message[]> {
    return this.run('read', conversationId, async () => {
      const result = await this.query<MessageRow>(this.sql.select, [conversationId]);
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
    // A whole conversation written twice is written once: safe to repeat on a new connection.
    return this.transaction(
      'write',
      conversationId,
      async (client) => {
        await this.replace(client, conversationId, messages);
      },
      true,
    );
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
   * boundary (see `ChatMemoryRepository.append`) in one statement, one round trip, its own
   * transaction holding the conversation's advisory lock (the table's append function): it
   * touches the added rows and the dropped ones, found through the primary key, never the
   * rest of the conversation. After a dropped connection it is sent once more on a fresh
   * one, and writes nothing if the first attempt committed (recognised by an id the first
   * attempt kept among the conversation's newest `appendIdsKept`, whatever trimmed its
   * messages since).
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
    return appendChecked(messages, options, (keepLast) =>
      this.appender.append(conversationId, messages, keepLast),
    );
  }

  /**
   * @param conversationId The conversation to read.
   * @param limit How many of the newest messages after the leading system ones to return.
   * @returns The leading system messages and those newest ones, in saved order.
   */
  findLast(conversationId: string, limit: number): Promise<Message[]> {
    return findLastChecked(limit, (newest) =>
      this.run('read', conversationId, async () => {
        const result = await this.query<MessageRow>(this.sql.findLast, [conversationId, newest]);
        return this.decode(conversationId, result.rows);
      }),
    );
  }

  /**
   * @param conversationId The conversation to delete.
   * @returns A Promise that resolves once the rows are gone.
   */
  deleteByConversationId(conversationId: string): Promise<void> {
    return this.transaction(
      'delete',
      conversationId,
      async (client) => {
        await client.query(this.sql.remove, [conversationId]);
        if (await this.hasAppendIds(client)) {
          await client.query(this.sql.removeAppendIds, [conversationId]);
        }
      },
      true,
    );
  }

  private async replace(
    client: ClientBase,
    conversationId: string,
    messages: readonly Message[],
  ): Promise<void> {
    await client.query(this.sql.remove, [conversationId]);
    await insertRows(this.writer, client, conversationId, messages, 0);
  }

  private decode(conversationId: string, rows: MessageRow[]): Message[] {
    return decodeTableRows(rows, { tableName: this.tableName, conversationId });
  }

  /**
   * One statement outside a transaction (a read): on a dropped connection (a stale pooled
   * one after a server restart) it runs once more on a fresh connection.
   */
  private query<R extends QueryResultRow>(text: string, values?: unknown[]) {
    return queryRetryingOnDrop<R>(this.pool, text, () => values);
  }

  /**
   * One transaction on one pooled connection, holding the conversation's lock; run again
   * once on a fresh connection when the connection dropped before `COMMIT` (or, for an
   * `idempotent` one, during it).
   */
  private transaction(
    operation: ChatMemoryOperation,
    conversationId: string,
    work: (client: ClientBase) => Promise<void>,
    idempotent = false,
  ): Promise<void> {
    return this.run(operation, conversationId, () =>
      lockedTransaction(this.pool, this.sql.lock, this.lockKey(conversationId), work, {
        listen: true,
        idempotent,
      }),
    );
  }

  /** The key of a conversation's advisory lock (the append function takes the same). */
  private lockKey(conversationId: string): string {
    return `${this.tableName}:${conversationId}`;
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
    // Two processes creating the table at once would race in the catalog: take turns.
    this.schema ??= lockedTransaction(
      this.pool,
      this.sql.lock,
      `rx-advisors-schema:${this.tableName}`,
      async (client) => {
        await client.query(postgresSchemaSql(this.tableName));
      },
      { listen: false, idempotent: true },
    ).catch((error: unknown) => {
      this.schema = undefined;
      throw error;
    });
    return this.schema;
  }
}
