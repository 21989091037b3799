import type { ClientBase } from 'pg';
import type { Message } from '../../core/message.js';
import { appendTrimFrom } from '../append-window.js';
import { toRow } from '../message-row.js';
import type { postgresStatements } from './postgres-schema.js';

/**
 * What the row writes of `PostgresChatMemoryRepository` need: the statements of its
 * table, its media limit and how many append ids it keeps.
 * @internal
 */
export interface PostgresRowWriter {
  sql: ReturnType<typeof postgresStatements>;
  maxMediaBytes: number;
  /** How many ids of its newest appends a conversation keeps (see `appendIdsKept`). */
  appendIdsKept: number;
}

/** The columns of `messages` as arrays, one per column, for an `unnest`. */
function columnArrays(
  writer: PostgresRowWriter,
  conversationId: string,
  messages: readonly Message[],
): unknown[] {
  const rows = messages.map((message, position) =>
    toRow(message, { conversationId, position, maxMediaBytes: writer.maxMediaBytes }),
  );
  return [
    rows.map((row) => row.role),
    rows.map((row) => row.content),
    rows.map((row) => row.tool_calls),
    rows.map((row) => row.reasoning),
    rows.map((row) => row.tool_call_id),
    rows.map((row) => row.tool_name),
    rows.map((row) => (row.is_error === null ? null : row.is_error === 1)),
    rows.map((row) => row.media),
  ];
}

/**
 * Inserts `messages` at positions `from`, `from + 1`… in one statement.
 * @internal
 */
export async function insertRows(
  writer: PostgresRowWriter,
  client: ClientBase,
  conversationId: string,
  messages: readonly Message[],
  from: number,
): Promise<void> {
  if (messages.length === 0) return;
  await client.query(writer.sql.insert, [
    conversationId,
    messages.map((_, index) => from + index),
    ...columnArrays(writer, conversationId, messages),
  ]);
}

/**
 * The values of the table's append function (see postgres-schema.ts), the whole `append`
 * (lock, insert, trim) as one statement, its own transaction.
 * @internal
 * @param lockKey The conversation's advisory lock key.
 * @param token The call's own id, kept among the conversation's newest append ids.
 * @returns The values for `again` (the second attempt after a dropped connection: write
 *   nothing when the first committed) or not.
 */
export function appendValues(
  writer: PostgresRowWriter,
  lockKey: string,
  token: string,
  conversationId: string,
  messages: readonly Message[],
  keepLast: number | undefined,
): (again: boolean) => unknown[] {
  const rest = [lockKey, conversationId, ...columnArrays(writer, conversationId, messages)];
  rest.push(keepLast ?? null, writer.appendIdsKept);
  return (again) => [token, again, ...rest];
}

/**
 * The body of `append`, inside the locked transaction: inserts `messages` after the last
 * row, then drops the oldest non-system rows down to the `keepLast` window, on a turn
 * boundary. It touches the added rows and the dropped ones, found through the primary
 * key, never the rest of the conversation.
 * @internal
 */
export async function appendRows(
  writer: PostgresRowWriter,
  client: ClientBase,
  conversationId: string,
  messages: readonly Message[],
  keepLast: number | undefined,
): Promise<void> {
  type Bounds = { last: number | null; first: number | null; systems: number };
  const before = (await client.query<Bounds>(writer.sql.bounds, [conversationId])).rows[0];
  const last = before?.last ?? -1;
  await insertRows(writer, client, conversationId, messages, last + 1);
  const end = last + messages.length;
  const first = before?.first ?? last + 1;
  const from = appendTrimFrom(before?.systems ?? 0, end - first + 1, keepLast);
  if (from === undefined) return;
  const found = await client.query<{ position: number }>(writer.sql.windowStart, [
    conversationId,
    first + from,
    end + 1,
  ]);
  const start = found.rows[0]?.position ?? end + 1;
  await client.query(writer.sql.dropRange, [conversationId, first, start]);
}
