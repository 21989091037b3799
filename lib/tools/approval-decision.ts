import type { ToolApprovalDecision } from '../core/tool.js';
import { ToolApprovalError } from '../errors/tool-approval-error.js';

/**
 * A boolean or a `{ approved, reason? }` as a decision; anything else is a
 * `ToolApprovalError` (`invalid-decision`).
 * @internal
 */
export function toDecision(value: unknown, approvalId: string): ToolApprovalDecision {
  if (typeof value === 'boolean') return { approved: value };
  if (typeof value === 'object' && value !== null) {
    const { approved, reason } = value as Record<string, unknown>;
    if (typeof approved === 'boolean' && (reason === undefined || typeof reason === 'string')) {
      return reason === undefined ? { approved } : { approved, reason };
    }
  }
  throw new ToolApprovalError({
    code: 'invalid-decision',
    approvalId,
    detail: `expected true, false or { approved: boolean, reason?: string }, got ${describe(value)}.`,
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object without a boolean "approved"';
  return typeof value;
}
