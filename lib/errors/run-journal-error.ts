import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.RunJournalError');

/**
 * Why a run journal refused to read or write:
 * - `'not-found'`: no run of this owner has this id (unknown, expired, deleted, or another
 *   owner's run: the two cannot be told apart, on purpose);
 * - `'conflict'`: the journal is longer than the writer expected (another instance writes
 *   the same run);
 * - `'too-large'`: the append would pass `maxRecords`, `maxRecordBytes` or `maxRunBytes`;
 * - `'corrupt-record'`: a stored record is not one this library wrote (the index says which);
 * - `'unsupported-version'`: a stored record was written by a newer format version;
 * - `'store-failure'`: the store itself failed (the cause says how).
 *
 * @example
 * ```ts
 * import type { RunJournalErrorReason } from 'rx-advisors/run';
 * const reason: RunJournalErrorReason = 'conflict';
 * ```
 */
export type RunJournalErrorReason =
  | 'not-found'
  | 'conflict'
  | 'too-large'
  | 'corrupt-record'
  | 'unsupported-version'
  | 'store-failure';

/**
 * A run journal cannot read or write a run (see {@link RunJournalErrorReason}). The message
 * is written by the library and names no stored content; the store's own error, if any, is
 * the `cause`.
 *
 * @example
 * ```ts partial
 * import { RunJournalError } from 'rx-advisors/run';
 *
 * journal.read({ owner: 'user-1', runId }).catch((error: unknown) => {
 *   if (RunJournalError.isInstance(error) && error.reason === 'not-found') show('gone');
 * });
 * ```
 */
export class RunJournalError extends RxAdvisorsError {
  /** The run id. */
  readonly runId: string;
  /** Why. */
  readonly reason: RunJournalErrorReason;
  /** The position of the record concerned, when one is (`'corrupt-record'`, `'unsupported-version'`). */
  readonly index: number | undefined;

  /** @param options The run id, the reason, the message, and the record's index and cause when known. */
  constructor(options: {
    runId: string;
    reason: RunJournalErrorReason;
    message: string;
    index?: number;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    Object.defineProperty(this, MARKER, { value: true });
    this.runId = options.runId;
    this.reason = options.reason;
    this.index = options.index;
  }

  /**
   * Whether `error` is a {@link RunJournalError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is RunJournalError {
    return hasErrorMarker(error, MARKER);
  }
}
