import type { ToolResultChunk } from '../core/chat-chunk.js';
import type { ToolCall, ToolMessage } from '../core/message.js';
import type { Tool } from '../core/tool.js';
import { ToolResultError } from '../errors/tool-result-error.js';
import type { ToolExecution } from './tool-execution.js';

/**
 * What a running tool call emits: with `ToolExecution.emitProgress`, a preliminary
 * `tool-result` chunk per value of an Observable tool, then always the one `ToolMessage`.
 * @internal
 */
export type ToolCallEvent = ToolMessage | ToolResultChunk;

/**
 * Whether an event is the call's result (the message the model sees), not a preliminary.
 * @internal
 */
export const isToolMessage = (event: ToolCallEvent): event is ToolMessage =>
  (event as ToolMessage).role === 'tool';

/** @internal */
export function toolMessage(call: ToolCall, content: string): ToolMessage {
  return { role: 'tool', toolCallId: call.id, name: call.name, content };
}

/**
 * An intermediate value of an Observable tool as a preliminary `tool-result` chunk: the
 * client sees it, the model never does.
 * @internal
 */
export function preliminaryResult(call: ToolCall, content: string): ToolResultChunk {
  return { type: 'tool-result', id: call.id, name: call.name, content, preliminary: true };
}

/**
 * The error result the model sees, or the error itself (thrown) under policy `throw`.
 * @internal
 */
export function failure(error: unknown, call: ToolCall, execution: ToolExecution): ToolMessage {
  if (execution.onToolError === 'throw') throw error;
  return {
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: execution.errorContent(error, call),
    isError: true,
  };
}

/**
 * A tool's value as the text the model sees; a converter that gives no string is a
 * `ToolResultError`.
 * @internal
 */
export function toText(tool: Tool, call: ToolCall, result: unknown): string {
  let content: unknown;
  try {
    content = tool.convertResult(result);
  } catch (error) {
    throw new ToolResultError({
      toolName: tool.name,
      toolCallId: call.id,
      received: 'an error',
      cause: error,
    });
  }
  if (typeof content === 'string') return content;
  throw new ToolResultError({
    toolName: tool.name,
    toolCallId: call.id,
    received: content === null ? 'null' : typeof content,
  });
}

/** The longest delay a timer can wait (2^31 − 1 ms); longer limits count as none. @internal */
export const MAX_TIMER_DELAY = 2_147_483_647;

/**
 * The milliseconds a call of `tool` may run, or `undefined` for no limit.
 * @internal
 */
export function timeLimitOf(tool: Tool, execution: ToolExecution): number | undefined {
  const limit = tool.timeout ?? execution.timeout;
  return limit <= MAX_TIMER_DELAY ? limit : undefined;
}
