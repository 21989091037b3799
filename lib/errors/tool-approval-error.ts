import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.ToolApprovalError');

/**
 * What was wrong with an approval decision: `invalid-decision` (an `approve` function
 * gave something other than a boolean or `{ approved, reason? }`), `unknown-approval-id`
 * (no pending call has that id), `duplicate-decision` (the call was decided or answered
 * already), `tool-not-found` (the call's tool is no longer offered), `arguments-edited`
 * (the decision carries other arguments than the call the model made).
 * @example
 * ```ts
 * import type { ToolApprovalErrorCode } from 'rx-advisors';
 * const code: ToolApprovalErrorCode = 'unknown-approval-id';
 * ```
 */
export type ToolApprovalErrorCode =
  | 'invalid-decision'
  | 'unknown-approval-id'
  | 'duplicate-decision'
  | 'tool-not-found'
  | 'arguments-edited';

/**
 * A decision on a tool call that needs approval could not be applied; no tool of the
 * round ran. The stream fails with it.
 *
 * @example
 * ```ts
 * import { ToolApprovalError, ToolCallingAdvisor } from 'rx-advisors';
 *
 * const loop = new ToolCallingAdvisor({ approve: () => ({ approved: true }) });
 * client
 *   .prompt('Delete user 7')
 *   .advisors(loop)
 *   .stream()
 *   .content()
 *   .subscribe({ error: (e) => ToolApprovalError.isInstance(e) && console.log(e.code, e.approvalId) });
 * ```
 */
export class ToolApprovalError extends RxAdvisorsError {
  /** What was wrong. */
  readonly code: ToolApprovalErrorCode;
  /** The approval id the decision named. */
  readonly approvalId: string;

  /** @param options What was wrong, the approval id and a sentence for the message. */
  constructor(options: { code: ToolApprovalErrorCode; approvalId: string; detail: string }) {
    super(`Tool approval ${JSON.stringify(options.approvalId)}: ${options.detail}`);
    Object.defineProperty(this, MARKER, { value: true });
    this.code = options.code;
    this.approvalId = options.approvalId;
  }

  /**
   * Whether `error` is a {@link ToolApprovalError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ToolApprovalError {
    return hasErrorMarker(error, MARKER);
  }
}
