import type { ChatRequest } from '../core/chat-request.js';
import type { AssistantMessage, Message, ToolCall, ToolMessage } from '../core/message.js';
import type { Tool } from '../core/tool.js';
import type { ToolRound } from './tool-round.js';
import { ToolApprovalError } from '../errors/tool-approval-error.js';
import { approvalIdOf, denialMessage, type ToolApprovalDecision } from './tool-approval.js';
import { toDecision } from './approval-decision.js';

/**
 * A request's messages with the approval decisions taken out: what the loop resumes.
 * @internal
 */
export interface ApprovalResume {
  /**
   * The messages without the decision messages; calls of earlier rounds left without a
   * result (the user sent a new message instead of deciding) answered "no decision".
   */
  readonly messages: Message[];
  /**
   * The round that waits for decisions, when the messages end with it: its assistant
   * message, the results it has, and the decisions sent for its calls (by call id).
   */
  readonly paused?: {
    readonly message: AssistantMessage;
    readonly results: ReadonlyMap<string, ToolMessage>;
    readonly decisions: ReadonlyMap<string, ToolApprovalDecision>;
  };
}

/**
 * Finds approval decisions and calls awaiting approval in a request's messages. Returns
 * `undefined` (nothing to resume, the messages go on unchanged) when every tool call has
 * a result and no message carries a decision. Decisions are valid only for the calls of
 * the last round, when it has no result yet: otherwise a clear `ToolApprovalError`.
 * @internal
 * @example
 * ```ts
 * const resume = resumeApprovals(request.messages, offered);
 * ```
 * @param messages The request's messages.
 * @param hasTool Whether a tool of a name is offered (an approved call needs its tool);
 *   asked only for approved calls.
 * @returns What to resume, or `undefined`.
 */
export function resumeApprovals(
  messages: readonly Message[],
  hasTool: (name: string) => boolean,
): ApprovalResume | undefined {
  if (!mayResume(messages)) return undefined;
  let out: Message[] | undefined;
  let paused: ApprovalResume['paused'];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (message.role === 'tool' && message.approval !== undefined) {
      throw strayDecision(messages, message.approval.approvalId);
    }
    if (message.role !== 'assistant' || message.toolCalls === undefined) {
      out?.push(message);
      continue;
    }
    const calls = message.toolCalls;
    const results = new Map<string, ToolMessage>();
    const decided = new Map<string, ToolMessage>();
    let end = index + 1;
    for (let next = messages[end]; next?.role === 'tool'; next = messages[++end]) {
      if (next.approval === undefined) results.set(next.toolCallId, next);
      else decided.set(checkDecision(next, calls, decided), next);
    }
    for (const [id, decision] of decided) {
      if (results.has(id)) throw duplicate(decision.approval?.approvalId ?? id);
    }
    const unanswered = calls.filter((call) => !results.has(call.id));
    if (unanswered.length === 0 && decided.size === 0) {
      out?.push(...messages.slice(index, end));
      index = end - 1;
      continue;
    }
    out ??= messages.slice(0, index);
    if (end === messages.length) {
      // The last round waits for decisions: the loop resumes it.
      const decisions = new Map<string, ToolApprovalDecision>();
      for (const [id, decision] of decided) {
        const { approval } = decision;
        const checked = toDecision(approval, approval?.approvalId ?? '');
        const call = calls.find((c) => c.id === id) as ToolCall;
        if (checked.approved && !hasTool(call.name)) {
          throw new ToolApprovalError({
            code: 'tool-not-found',
            approvalId: approvalIdOf(call),
            detail: `the tool "${call.name}" is no longer offered, so the approved call cannot run.`,
          });
        }
        decisions.set(id, checked);
      }
      paused = { message, results, decisions };
      index = end - 1;
      continue;
    }
    if (decided.size > 0) {
      throw unknown(decided.values().next().value?.approval?.approvalId ?? '');
    }
    // A new message came instead of a decision: the waiting calls are answered "no decision".
    out.push(message);
    for (const call of calls) out.push(results.get(call.id) ?? denialMessage(call, 'no decision'));
    index = end - 1;
  }
  if (out === undefined) return undefined;
  return paused === undefined ? { messages: out } : { messages: out, paused };
}

/**
 * Whether a message carries a decision or a round has fewer results than calls: one pass,
 * no allocation, so a request with nothing to resume costs next to nothing.
 */
function mayResume(messages: readonly Message[]): boolean {
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (message.role === 'tool' && message.approval !== undefined) return true;
    if (message.role === 'assistant' && message.toolCalls !== undefined) {
      let results = 0;
      while (messages[index + 1 + results]?.role === 'tool') results++;
      if (results < message.toolCalls.length) return true;
    }
  }
  return false;
}

/** Checks one decision against the round's calls; returns the call id it decides. */
function checkDecision(
  message: ToolMessage,
  calls: readonly ToolCall[],
  decided: ReadonlyMap<string, ToolMessage>,
): string {
  const approval = message.approval as NonNullable<ToolMessage['approval']>;
  const { approvalId } = approval;
  const call = calls.find((c) => approvalIdOf(c) === approvalId);
  if (call === undefined || call.id !== message.toolCallId) throw unknown(approvalId);
  if (decided.has(call.id)) throw duplicate(approvalId);
  const sent = approval.toolCall;
  const edited =
    message.name !== call.name ||
    (sent !== undefined &&
      (sent.id !== call.id || sent.name !== call.name || sent.arguments !== call.arguments));
  if (edited) {
    throw new ToolApprovalError({
      code: 'arguments-edited',
      approvalId,
      detail:
        'the decision names another call than the model made; a decision approves the call ' +
        'exactly as the model made it.',
    });
  }
  return call.id;
}

/**
 * A decision that follows no paused round: `duplicate-decision` when it names a call of
 * the conversation that has its result already (a decision replayed after the first was
 * applied), else `unknown-approval-id`.
 */
function strayDecision(messages: readonly Message[], approvalId: string): ToolApprovalError {
  const call = messages
    .flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []))
    .find((c) => approvalIdOf(c) === approvalId);
  const answered =
    call !== undefined &&
    messages.some((m) => m.role === 'tool' && m.approval === undefined && m.toolCallId === call.id);
  return answered ? duplicate(approvalId) : unknown(approvalId);
}

function unknown(approvalId: string): ToolApprovalError {
  return new ToolApprovalError({
    code: 'unknown-approval-id',
    approvalId,
    detail: 'no tool call awaits approval under this id.',
  });
}

function duplicate(approvalId: string): ToolApprovalError {
  return new ToolApprovalError({
    code: 'duplicate-decision',
    approvalId,
    detail: 'the call was decided or answered already.',
  });
}

/**
 * The round paused in an earlier request, as the loop resumes it: its usage was counted by
 * that request, so its response has none.
 * @internal
 */
export function resumedRound(
  request: ChatRequest,
  paused: NonNullable<ApprovalResume['paused']>,
  offered: ReadonlyMap<string, Tool>,
): ToolRound {
  const { message, results, decisions } = paused;
  return {
    request,
    response: {
      message,
      text: message.content,
      usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
      finishReason: 'tool-calls',
      metadata: { rounds: 0 },
    },
    calls: message.toolCalls ?? [],
    offered,
    returnDirect: false,
    resumed: { decisions, answered: results },
  };
}
