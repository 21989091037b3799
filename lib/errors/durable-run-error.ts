import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.DurableRunError');

/**
 * Why a durable run stopped:
 * - `'uncertain-tool-call'`: on resume, a call of a tool that is not idempotent had started
 *   (its `tool-call-started` record is there) but has no recorded outcome: it may have run.
 *   With `uncertainToolCalls: 'fail'` the run stops instead of asking for approval;
 * - `'run-exists'`: the run id names a run this owner has already, and the call brings new
 *   messages (a resume brings none, or the same ones, or approval decisions);
 * - `'no-owner'`: neither the `runOwner` advisor param nor the advisor's `owner` option
 *   says who owns the run.
 *
 * @example
 * ```ts
 * import type { DurableRunErrorReason } from 'rx-advisors/run';
 * const reason: DurableRunErrorReason = 'uncertain-tool-call';
 * ```
 */
export type DurableRunErrorReason = 'uncertain-tool-call' | 'run-exists' | 'no-owner';

/**
 * A durable run cannot start or go on (see {@link DurableRunErrorReason}); nothing was run
 * again. The journal's own failures are `RunJournalError`s.
 *
 * @example
 * ```ts partial
 * import { DurableRunError } from 'rx-advisors/run';
 *
 * client
 *   .prompt()
 *   .advisorParams({ runId, runOwner: 'user-1' })
 *   .stream()
 *   .content()
 *   .subscribe({
 *     error: (error: unknown) => {
 *       if (DurableRunError.isInstance(error) && error.reason === 'uncertain-tool-call') {
 *         console.log(`check whether ${error.toolName} ran before resuming`);
 *       }
 *     },
 *   });
 * ```
 */
export class DurableRunError extends RxAdvisorsError {
  /** The run id. */
  readonly runId: string;
  /** Why. */
  readonly reason: DurableRunErrorReason;
  /** The tool of an uncertain call (`'uncertain-tool-call'`). */
  readonly toolName: string | undefined;
  /** The id of an uncertain call (`'uncertain-tool-call'`). */
  readonly toolCallId: string | undefined;

  /** @param options The run id, the reason, the message, and the uncertain call when there is one. */
  constructor(options: {
    runId: string;
    reason: DurableRunErrorReason;
    message: string;
    toolName?: string;
    toolCallId?: string;
  }) {
    super(options.message);
    Object.defineProperty(this, MARKER, { value: true });
    this.runId = options.runId;
    this.reason = options.reason;
    this.toolName = options.toolName;
    this.toolCallId = options.toolCallId;
  }

  /**
   * Whether `error` is a {@link DurableRunError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is DurableRunError {
    return hasErrorMarker(error, MARKER);
  }
}
