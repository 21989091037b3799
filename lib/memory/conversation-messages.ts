import type { AssistantMessage, Message, ToolMessage } from '../core/message.js';
import { ToolApprovalError } from '../errors/tool-approval-error.js';

/**
 * The messages a call adds to its conversation: the request's messages after its last
 * assistant message, system messages left out. For a fresh prompt that is the user
 * message (few-shot examples given with `.messages()` before an assistant message are
 * not saved); for a tool-loop round without history it is the new tool results.
 * @internal
 */
export function turnInputs(messages: readonly Message[]): Message[] {
  let start = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'assistant') {
      start = i + 1;
      break;
    }
  }
  const inputs: Message[] = [];
  for (let i = start; i < messages.length; i++) {
    const message = messages[i];
    // A decision on a tool call (`approval`) is not stored: the loop's results replace it.
    if (message === undefined || message.role === 'system') continue;
    if (message.role !== 'tool' || message.approval === undefined) inputs.push(message);
  }
  return inputs;
}

/**
 * Splits messages into the system messages and the others, keeping order in each.
 * @internal
 */
export function splitSystem(messages: readonly Message[]): [Message[], Message[]] {
  const system: Message[] = [];
  const others: Message[] = [];
  for (const message of messages) (message.role === 'system' ? system : others).push(message);
  return [system, others];
}

/**
 * Makes a conversation safe to send: every assistant tool call is answered by a tool
 * result right after it, and every tool result answers a call just before it. Calls left
 * unanswered (a call aborted while its tools ran, a loop stopped at its round limit) are
 * dropped from their message, and the message too when nothing else is left in it;
 * results without their call are dropped. An approval decision (a tool message with
 * `approval`) is never dropped silently: one for a call of an earlier round (answered, or
 * settled "no decision" when the user wrote instead) throws a `ToolApprovalError`
 * `duplicate-decision` (a decision replayed after the first was applied, which memory
 * without `saveToolMessages` cannot tell from a late one); any other stays for the tool
 * loop to apply or refuse. A valid conversation comes back as an equal copy.
 * @internal
 */
export function pairToolMessages(messages: readonly Message[]): Message[] {
  const paired: Message[] = [];
  const settled = new Set<string>();
  let index = 0;
  while (index < messages.length) {
    const message = messages[index];
    index++;
    if (message.role === 'tool') {
      // A result whose call is not right before it goes; a decision stays for the loop.
      if (message.approval === undefined) continue;
      if (settled.has(message.toolCallId)) throw replayed(message.approval.approvalId);
      paired.push(message);
      continue;
    }
    if (message.role !== 'assistant' || message.toolCalls === undefined) {
      paired.push(message);
      continue;
    }
    const results: ToolMessage[] = [];
    for (let next = messages[index]; next?.role === 'tool'; next = messages[++index]) {
      results.push(next);
    }
    if (index === messages.length && results.some((result) => result.approval !== undefined)) {
      // The last round, with decisions on its calls: the tool loop resumes it whole.
      paired.push(message, ...results);
      continue;
    }
    for (const call of message.toolCalls) settled.add(call.id);
    const answered = new Set(results.map((result) => result.toolCallId));
    const calls = message.toolCalls.filter((call) => answered.has(call.id));
    const ids = new Set(calls.map((call) => call.id));
    if (calls.length === message.toolCalls.length) paired.push(message);
    else if (calls.length > 0) paired.push({ ...message, toolCalls: calls });
    else if (message.content !== '' || message.reasoning !== undefined) {
      paired.push(withoutToolCalls(message));
    }
    for (const result of results) if (ids.has(result.toolCallId)) paired.push(result);
  }
  return paired;
}

function withoutToolCalls(message: AssistantMessage): AssistantMessage {
  const copy: AssistantMessage = { role: 'assistant', content: message.content };
  if (message.reasoning !== undefined) copy.reasoning = message.reasoning;
  return copy;
}

function replayed(approvalId: string): ToolApprovalError {
  return new ToolApprovalError({
    code: 'duplicate-decision',
    approvalId,
    detail: 'the call was decided or answered already (a decision is applied once).',
  });
}
