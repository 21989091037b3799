import type BetterSqlite3 from 'better-sqlite3';
import type { Message } from '../../core/message.js';
import { ChatMemoryError, type ChatMemoryOperation } from '../../errors/chat-memory-error.js';
import { appendChecked, findLastChecked } from '../append-window.js';
import type { ChatMemoryRepository } from '../chat-memory-repository.js';
import { decodeTableRows } from '../decode-table-rows.js';
import type { MessageRow } from '../message-row.js';
import {
  checkSqliteOptions,
  type SqliteChatMemoryRepositoryOptions,
} from './sqlite-chat-memory-options.js';
import { sqliteFailure } from './sqlite-failure.js';
import { prepareSqliteStatements, type SqliteStatements } from './sqlite-statements.js';

export type { SqliteChatMemoryRepositoryOptions } from './sqlite-chat-memory-options.js';

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
  private statements: SqliteStatements | undefined;

  /** @param options The database and, optionally, the table name. */
  constructor(options: SqliteChatMemoryRepositoryOptions) {
    const checked = checkSqliteOptions(options);
    this.database = checked.database;
    this.tableName = checked.tableName;
    this.maxMediaBytes = checked.maxMediaBytes;
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
      this.decode(conversationId, s.select(conversationId)),
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
    return appendChecked(messages, options, (keepLast) =>
      this.run('write', conversationId, (s) => s.append(conversationId, messages, keepLast)),
    );
  }

  /**
   * @param conversationId The conversation to read.
   * @param limit How many of the newest messages after the leading system ones to return.
   * @returns The leading system messages and those newest ones, in saved order.
   */
  findLast(conversationId: string, limit: number): Promise<Message[]> {
    return findLastChecked(limit, (newest) =>
      this.run('read', conversationId, (s) =>
        this.decode(conversationId, s.findLast(conversationId, newest)),
      ),
    );
  }

  /**
   * @param conversationId The conversation to delete.
   * @returns A Promise that resolves once the rows are gone.
   */
  deleteByConversationId(conversationId: string): Promise<void> {
    return this.run('delete', conversationId, (s) => {
      s.remove(conversationId);
    });
  }

  private decode(conversationId: string, rows: MessageRow[]): Message[] {
    return decodeTableRows(rows, { tableName: this.tableName, conversationId });
  }

  private run<T>(
    operation: ChatMemoryOperation,
    conversationId: string | undefined,
    work: (statements: SqliteStatements) => T,
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
  private prepared(): SqliteStatements {
    this.statements ??= prepareSqliteStatements(this.database, this.tableName, this.maxMediaBytes);
    return this.statements;
  }
}
