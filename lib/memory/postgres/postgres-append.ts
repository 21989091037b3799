import type { ClientBase } from 'pg';
import type { Message } from '../../core/message.js';
import { errorCodeOf } from '../../errors/error-details.js';
import { appendRows, appendValues, type PostgresRowWriter } from './postgres-message-rows.js';

/**
 * Runs `work` in one transaction on the conversation, taking its advisory lock.
 * @internal
 */
export type PostgresConversationTransaction = (
  conversationId: string,
  work: (client: ClientBase) => Promise<void>,
) => Promise<void>;

/**
 * Runs the append function's statement on its own (autocommit), once more on a fresh
 * connection with `values(true)` when the connection dropped.
 * @internal
 */
export type PostgresAppendStatement = (
  conversationId: string,
  values: (again: boolean) => unknown[],
) => Promise<void>;

/**
 * The `append` of `PostgresChatMemoryRepository`: one statement, the call of the table's
 * append function (lock, insert, trim; see postgres-schema.ts) in its own transaction: one
 * round trip. A connection dropped before the reply leaves the outcome unknown, so the
 * call carries a token of its own that the function stores with the turn; the retry on a
 * fresh connection sends it again with `again` and the function writes nothing when it
 * finds the token. On a table without the function (migrated from an earlier `schemaSql`
 * with `createTable: false`) it runs the same steps as four statements in a locked
 * transaction, from then on.
 * @internal
 */
export class PostgresAppend {
  /** False once the function turned out missing. */
  private withFunction = true;

  constructor(
    private readonly writer: PostgresRowWriter,
    private readonly statement: PostgresAppendStatement,
    private readonly transaction: PostgresConversationTransaction,
    private readonly lockKey: (conversationId: string) => string,
  ) {}

  async append(
    conversationId: string,
    messages: readonly Message[],
    keepLast: number | undefined,
  ): Promise<void> {
    if (this.withFunction) {
      const key = this.lockKey(conversationId);
      const token = globalThis.crypto.randomUUID();
      try {
        return await this.statement(
          conversationId,
          appendValues(this.writer, key, token, conversationId, messages, keepLast),
        );
      } catch (error) {
        // undefined_function, however the repository wrapped it.
        if (errorCodeOf(error) !== '42883') throw error;
        this.withFunction = false;
      }
    }
    return this.transaction(conversationId, (client) =>
      appendRows(this.writer, client, conversationId, messages, keepLast),
    );
  }
}
