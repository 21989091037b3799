import type { RunJournal } from './run-journal.js';
import type { RunKey } from './run-key.js';
import type { RunRecord } from './run-record.js';

/**
 * The key of a journal's synchronous append: a store whose append does all its work on the
 * spot (in memory, SQLite through better-sqlite3) offers it under this symbol, so that the
 * durable run's writer appends without a Promise (and the microtask hops it costs) per
 * append. Not part of the `RunJournal` contract: a store without it is appended to through
 * `append`, and a wrapper of a journal (a counter, a decorator) that does not pass it on
 * just takes the asynchronous path.
 *
 * The records are handed over: the caller (the durable run's writer) changes neither them
 * nor anything they hold after the call, and copies beforehand what someone else still
 * holds (a caller's messages, a tool's result the loop passes on), so a store may keep them
 * as they are (in memory) instead of making their text. A store that makes their text on
 * the spot (SQLite) is not concerned.
 * @internal
 */
export const APPEND_NOW: unique symbol = Symbol('rx-advisors.run-journal.append-now');

/**
 * A journal's synchronous append: what `append` does, returning the run's new length or
 * throwing what `append` would reject with.
 * @internal
 */
export type AppendNow = (
  key: RunKey,
  records: readonly RunRecord[],
  expectedLength: number,
) => number;

/**
 * The synchronous append of a journal, bound to it, when it has one.
 * @internal
 * @param journal A journal.
 * @returns Its synchronous append, or `undefined`.
 */
export function appendNowOf(journal: RunJournal): AppendNow | undefined {
  const appendNow = (journal as { [APPEND_NOW]?: unknown })[APPEND_NOW];
  return typeof appendNow === 'function' ? (appendNow as AppendNow).bind(journal) : undefined;
}

/**
 * The key of a journal's synchronous read, as {@link APPEND_NOW} for `read`: a store whose
 * read does all its work on the spot (in memory) offers it, so that a run starts with no
 * Promise hop. Not part of the `RunJournal` contract.
 * @internal
 */
export const READ_NOW: unique symbol = Symbol('rx-advisors.run-journal.read-now');

/**
 * A journal's synchronous read: what `read` does, returning the records or throwing what
 * `read` would reject with.
 * @internal
 */
export type ReadNow = (key: RunKey) => readonly RunRecord[];

/**
 * The synchronous read of a journal, bound to it, when it has one.
 * @internal
 * @param journal A journal.
 * @returns Its synchronous read, or `undefined`.
 */
export function readNowOf(journal: RunJournal): ReadNow | undefined {
  const readNow = (journal as { [READ_NOW]?: unknown })[READ_NOW];
  return typeof readNow === 'function' ? (readNow as ReadNow).bind(journal) : undefined;
}
