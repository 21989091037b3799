import type { ToolResultChunk } from '../core/chat-chunk.js';
import type { ToolCall } from '../core/message.js';
import { parseJson } from '../schema/parse-json.js';
import { SCHEMA_LIMIT_DEFAULTS } from '../schema/schema-limits.js';
import type { SseErrorPolicy } from '../sse/encoder/sse-error-policy.js';

/** The result text the tool loop gives a denied call (docs/tool-calling.md, "Approval"). */
const DENIED = 'denied by the user';

/**
 * A tool call as the UI message stream's `tool-input-available` part, or `tool-input-error`
 * when its arguments are not JSON. The same safe parse as tool arguments: no `__proto__` key
 * reaches a browser's tool part, however the model escaped it.
 * @internal
 */
export function toolInputPart(call: ToolCall): Record<string, unknown> {
  const { id: toolCallId, name: toolName } = call;
  const parsed = parseJson(
    call.arguments === '' ? '{}' : call.arguments,
    SCHEMA_LIMIT_DEFAULTS.maxDepth,
  );
  if (!parsed.ok) {
    return {
      type: 'tool-input-error',
      toolCallId,
      toolName,
      input: call.arguments,
      errorText: 'The tool arguments are not valid JSON.',
    };
  }
  return { type: 'tool-input-available', toolCallId, toolName, input: parsed.value };
}

/**
 * A tool result as the UI message stream's output part: `tool-output-error` when `isError`
 * (its text per the error policy), `tool-output-denied` for the loop's denial
 * (`denied by the user[: <reason>]`), else `tool-output-available`; a preliminary result
 * (an Observable tool's progress) is `tool-output-available` with `preliminary: true`, its
 * output a nested agent's `{ agentPath, chunk }` when it carries one (`agentTool`).
 * @internal
 */
export function toolOutputPart(
  chunk: ToolResultChunk,
  errors: SseErrorPolicy,
): Record<string, unknown> {
  const { id: toolCallId, content } = chunk;
  if (chunk.preliminary === true) {
    // A nested agent's chunk travels as an object (agentTool); the UI shows it as the output.
    const output = chunk.agentChunk ?? content;
    return { type: 'tool-output-available', toolCallId, output, preliminary: true };
  }
  if (chunk.isError === true) {
    return { type: 'tool-output-error', toolCallId, errorText: errors.toolError(chunk) };
  }
  if (content === DENIED || content.startsWith(`${DENIED}: `)) {
    return { type: 'tool-output-denied', toolCallId };
  }
  return { type: 'tool-output-available', toolCallId, output: content };
}
