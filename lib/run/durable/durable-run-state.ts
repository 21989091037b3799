import type { ToolApprovalDecision } from '../../core/tool.js';
import type { RunKey } from '../run-key.js';
import type { RunRecord } from '../run-record.js';
import type { Delivery } from './delivery.js';
import type { RecordedRun } from './recorded-run.js';
import type { RunWriter } from './run-writer.js';

/** A record as the run writes it; the writer adds `delivered`. @internal */
export type NewRunRecord = RunRecord extends infer R
  ? R extends RunRecord
    ? Omit<R, 'delivered'>
    : never
  : never;

/**
 * What happens on resume to a call of a tool that is not idempotent, that started and has
 * no recorded outcome (it may have run): `'approve'` sends it through the tool loop's
 * approval flow (the `approve` option, or a paused run that a resume with the decision
 * continues); `'fail'` stops the run with a `DurableRunError` `'uncertain-tool-call'`.
 *
 * @example
 * ```ts
 * import type { UncertainToolCallPolicy } from 'rx-advisors/run';
 * const policy: UncertainToolCallPolicy = 'fail';
 * ```
 */
export type UncertainToolCallPolicy = 'approve' | 'fail';

/**
 * One subscription of a durable run: its key, what the journal held when it started, the
 * writer, its place in the outbound stream, and the count of model rounds it went past
 * (replayed or live), which numbers rounds and the tool calls they made.
 * @internal
 */
export class DurableRunState {
  /** Model rounds finished (replayed or recorded) so far; the tools that run belong to the last. */
  completedRounds = 0;
  /** Calls whose decision from the resuming request was recorded already. */
  readonly recordedDecisions = new Set<string>();

  /**
   * @param key The run.
   * @param recorded What the journal held (`undefined` for a new run).
   * @param writer Appends this subscription's records.
   * @param delivery The subscription's place in the outbound stream.
   * @param uncertainToolCalls The policy for calls that may have run.
   * @param decisions Decisions the resuming request brought, by call id.
   */
  constructor(
    readonly key: RunKey,
    readonly recorded: RecordedRun | undefined,
    private readonly writer: RunWriter,
    readonly delivery: Delivery,
    readonly uncertainToolCalls: UncertainToolCallPolicy,
    readonly decisions: ReadonlyMap<string, ToolApprovalDecision>,
  ) {}

  /**
   * Appends a record, with the units delivered so far.
   * @param record The record without its `delivered` count.
   * @returns Settles when it is written.
   */
  append(record: NewRunRecord): Promise<void> {
    return this.writer.append(this.stamped(record));
  }

  /**
   * {@link DurableRunState.append} without a Promise when the journal appends synchronously.
   * @param record The record without its `delivered` count.
   * @returns `undefined` when it is written already, else settles when it is.
   * @throws What a synchronous append threw.
   */
  write(record: NewRunRecord): Promise<void> | undefined {
    return this.writer.write([this.stamped(record)]);
  }

  /**
   * Appends a record the loop does not wait for (a decision): its failure fails the next
   * append, so the run still stops on it.
   * @param record The record without its `delivered` count.
   */
  appendLater(record: NewRunRecord): void {
    try {
      this.write(record)?.catch(() => undefined);
    } catch {
      // Kept by the writer: the next append fails with it.
    }
  }

  /**
   * Holds a record for the next append (the outcome of an idempotent tool: lost at a
   * crash, the tool runs again), with the units delivered so far.
   * @param record The record without its `delivered` count.
   */
  appendWithNext(record: NewRunRecord): void {
    this.writer.hold(this.stamped(record));
  }

  /**
   * The record with the units delivered so far. Each caller passes an object literal of its
   * own, made for this record: it is completed in place, not copied (a spread per record
   * was a tenth of the advisor's own cost per round).
   */
  private stamped(record: NewRunRecord): RunRecord {
    (record as { delivered?: number }).delivered = this.delivery.position;
    return record as RunRecord;
  }

  /**
   * Appends the held records, if any (a run that pauses writes no `run-ended` to carry them).
   * @returns Settles when they are written.
   */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /**
   * Appends the held records, if any, and lets a failure go (the run is over: unsubscribed,
   * or its error already on its way).
   */
  flushQuietly(): void {
    if (this.writer.holds) this.writer.flush().catch(() => undefined);
  }
}
