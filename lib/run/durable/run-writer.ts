import type { RunJournal } from '../run-journal.js';
import type { RunKey } from '../run-key.js';
import type { RunRecord } from '../run-record.js';
import { appendNowOf, type AppendNow } from '../sync-append.js';

const WRITTEN: Promise<void> = Promise.resolve();

/**
 * Appends one subscription's records to its run, one append at a time and in the order
 * they were asked for, each with the length the journal must have (so a second instance
 * writing the same run fails with `RunJournalError` `'conflict'`). After a failed append
 * every later one fails with the same error: a run never goes on past a lost record.
 *
 * A record that need not be durable at once (the outcome of an idempotent tool: lost, the
 * tool runs again) is held (`hold`) and rides with the next append, in its place in the
 * order: one append, one round trip, one transaction for a round and the outcomes before it.
 *
 * A journal with a synchronous append (in memory, SQLite) is written on the spot, with no
 * Promise: every append of such a journal is done when `write` returns, so the order holds.
 * @internal
 */
export class RunWriter {
  private tail: Promise<void> = WRITTEN;
  private failure: { error: unknown } | undefined;
  /** Records held for the next append, in order (made on the first one held). */
  private held: RunRecord[] | undefined;
  private readonly appendNow: AppendNow | undefined;

  /**
   * @param journal The store.
   * @param key The run.
   * @param length The run's length as read.
   */
  constructor(
    private readonly journal: RunJournal,
    private readonly key: RunKey,
    private length: number,
  ) {
    this.appendNow = appendNowOf(journal);
  }

  /**
   * Appends the held records, then these, in one append after those asked for before.
   * @param records The records.
   * @returns Settles when they are written (or could not be).
   */
  append(...records: RunRecord[]): Promise<void> {
    // What a synchronous append throws rejects the Promise.
    return new Promise<void>((resolve) => resolve(this.write(records)));
  }

  /**
   * {@link RunWriter.append} without a Promise when the journal appends synchronously.
   * @param records The records.
   * @returns `undefined` when they are written already, else settles when they are.
   * @throws What the synchronous append threw (or an earlier append's failure).
   */
  write(records: RunRecord[]): Promise<void> | undefined {
    const { held } = this;
    this.held = undefined;
    if (held !== undefined) for (const record of records) held.push(record);
    return this.appendBatch(held ?? records);
  }

  private appendBatch(batch: RunRecord[]): Promise<void> | undefined {
    const { appendNow } = this;
    if (appendNow !== undefined) {
      if (this.failure !== undefined) throw this.failure.error;
      try {
        this.length = appendNow(this.key, batch, this.length);
      } catch (error) {
        this.failure = { error };
        throw error;
      }
      return undefined;
    }
    const written = this.tail.then(async () => {
      if (this.failure !== undefined) throw this.failure.error;
      try {
        this.length = await this.journal.append(this.key, batch, this.length);
      } catch (error) {
        this.failure = { error };
        throw error;
      }
    });
    // The chain goes on whatever happened; each caller sees its own append's fate.
    this.tail = written.catch(() => undefined);
    return written;
  }

  /**
   * Holds a record for the next append (it is lost if none comes: the run failed or was
   * unsubscribed first).
   * @param record The record.
   */
  hold(record: RunRecord): void {
    (this.held ??= []).push(record);
  }

  /** Whether records are held for the next append. */
  get holds(): boolean {
    return this.held !== undefined;
  }

  /**
   * Appends the held records, if any.
   * @returns Settles when they are written.
   */
  flush(): Promise<void> {
    return this.held === undefined ? this.tail : this.append();
  }
}
