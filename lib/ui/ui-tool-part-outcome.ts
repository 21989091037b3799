import type { ToolApprovalResponse } from '../core/message.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { UiMessagePart } from './ui-message.js';

/**
 * The decision of a tool part in state `approval-responded` (what useChat's
 * `addToolApprovalResponse` sets): `approval: { id, approved, reason? }`; `undefined` for
 * any other state.
 * @internal
 */
export function approvalResponse(part: UiMessagePart): ToolApprovalResponse | undefined {
  if (part['state'] !== 'approval-responded') return undefined;
  const approval = part['approval'] as Record<string, unknown> | undefined;
  if (
    typeof approval !== 'object' ||
    approval === null ||
    typeof approval['id'] !== 'string' ||
    typeof approval['approved'] !== 'boolean'
  ) {
    throw new InvalidOptionsError({
      option: 'messages',
      value: approval,
      expected:
        "an approval-responded tool part's approval: { id: string, approved: boolean, reason? }",
    });
  }
  const response: ToolApprovalResponse = {
    approvalId: approval['id'],
    approved: approval['approved'],
  };
  if (typeof approval['reason'] === 'string') response.reason = approval['reason'];
  return response;
}

/**
 * The outcome of a tool part as the model's tool result (`undefined`: the call has none yet).
 * A denial reads as the tool loop gives it to the model (docs/tool-calling.md, "Approval").
 * @internal
 */
export function toolOutcome(
  part: UiMessagePart,
): { content: string; isError: boolean } | undefined {
  switch (part['state']) {
    case 'output-available': {
      const output = part['output'];
      return {
        content: typeof output === 'string' ? output : JSON.stringify(output ?? null),
        isError: false,
      };
    }
    case 'output-error':
      return {
        content: typeof part['errorText'] === 'string' ? part['errorText'] : 'The tool failed.',
        isError: true,
      };
    case 'output-denied': {
      const approval = part['approval'] as { reason?: unknown } | undefined;
      const reason = typeof approval?.reason === 'string' ? `: ${approval.reason}` : '';
      return { content: `denied by the user${reason}`, isError: false };
    }
    default:
      return undefined;
  }
}
