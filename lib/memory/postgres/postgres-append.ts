import type { ClientBase } from 'pg';
import type { Message } from '../../core/message.js';
import { errorCodeOf } from '../../errors/error-details.js';
import { appendRows, appendValues, type PostgresRowWriter } from './postgres-message-rows.js';
import { appendIdsTableName, type postgresStatements } from './postgres-schema.js';

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
 * call carries a token of its own that the function keeps among the conversation's newest
 * append ids (apart from the messages, so no trim removes it); the retry on a fresh
 * connection sends it again with `again` and the function writes nothing when it finds
 * the token. On a table without this version's function (migrated from an earlier
 * `schemaSql` with `createTable: false`) it runs the same steps as four statements in a
 * locked transaction, from then on.
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

/**
 * Whether the append ids table of `tableName` exists, for `deleteByConversationId` (which
 * deletes the conversation's ids with its messages): always when the repository creates
 * its schema; else looked up once (a migration of an earlier version has none).
 * @internal
 */
export function appendIdsLookup(
  sql: ReturnType<typeof postgresStatements>,
  tableName: string,
  createTable: boolean,
): (client: ClientBase) => Promise<boolean> {
  if (createTable) return () => Promise.resolve(true);
  let present: Promise<boolean> | undefined;
  return (client) => {
    present ??= client
      .query<{ present: boolean }>(sql.hasAppendIds, [`"${appendIdsTableName(tableName)}"`])
      .then((result) => result.rows[0]?.present === true)
      .catch((error: unknown) => {
        present = undefined;
        throw error;
      });
    return present;
  };
}
