import type { ClientBase } from 'pg';
import type { Message } from '../../core/message.js';
import { errorCodeOf } from '../../errors/error-details.js';
import { appendAtOnce, appendRows, type PostgresRowWriter } from './postgres-message-rows.js';

/**
 * Runs `work` in one transaction on the conversation; `lock`: whether the transaction
 * takes the conversation's advisory lock itself (false: `work` does).
 * @internal
 */
export type PostgresConversationTransaction = (
  conversationId: string,
  work: (client: ClientBase) => Promise<void>,
  lock: boolean,
) => Promise<void>;

/**
 * The `append` of `PostgresChatMemoryRepository`: one call of the table's append function
 * (lock, insert, trim; see postgres-schema.ts) between `BEGIN` and `COMMIT`. The transaction
 * stays explicit so that a connection dropped before `COMMIT` is retried safely (see
 * `lockedTransaction`). On a table without the function (migrated from an earlier
 * `schemaSql` with `createTable: false`) it runs the same steps as four statements under
 * the lock, from then on.
 * @internal
 */
export class PostgresAppend {
  /** False once the function turned out missing. */
  private withFunction = true;

  constructor(
    private readonly writer: PostgresRowWriter,
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
      try {
        return await this.transaction(
          conversationId,
          (client) => appendAtOnce(this.writer, client, key, conversationId, messages, keepLast),
          false,
        );
      } catch (error) {
        // undefined_function, however the repository wrapped it.
        if (errorCodeOf(error) !== '42883') throw error;
        this.withFunction = false;
      }
    }
    return this.transaction(
      conversationId,
      (client) => appendRows(this.writer, client, conversationId, messages, keepLast),
      true,
    );
  }
}
