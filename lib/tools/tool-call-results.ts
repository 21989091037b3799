import type { ToolCallEvent } from '../advisor-api/tool-call-interceptor.js';
import type { ToolResultChunk } from '../core/chat-chunk.js';
import { checkMediaPart, type MediaPart } from '../core/media-part.js';
import type { ToolCall, ToolMessage } from '../core/message.js';
import type { Tool } from '../core/tool.js';
import type { ToolResultContent } from '../core/tool-result-content.js';
import { runFailureOf } from '../errors/fails-run.js';
import { ToolResultError } from '../errors/tool-result-error.js';
import { UnsupportedMediaError } from '../errors/unsupported-media-error.js';
import type { ToolExecution } from './tool-execution.js';

export type { ToolCallEvent } from '../advisor-api/tool-call-interceptor.js';

/**
 * Whether an event is the call's result (the message the model sees), not a preliminary.
 * @internal
 */
export const isToolMessage = (event: ToolCallEvent): event is ToolMessage =>
  (event as ToolMessage).role === 'tool';

/**
 * The message the model sees for a converted result (`media` only when there is some).
 * @internal
 */
export function toolMessage(call: ToolCall, result: ToolResultContent): ToolMessage {
  const message: ToolMessage = {
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: result.content,
  };
  if (result.media !== undefined && result.media.length > 0) message.media = result.media;
  return message;
}

/**
 * An intermediate value of an Observable tool as a preliminary `tool-result` chunk: the
 * client sees it (its text, and a nested agent's chunk as it is), the model never does.
 * @internal
 */
export function preliminaryResult(call: ToolCall, result: ToolResultContent): ToolResultChunk {
  const { content, agentChunk } = result;
  if (agentChunk !== undefined) {
    return {
      type: 'tool-result',
      id: call.id,
      name: call.name,
      content,
      preliminary: true,
      agentChunk,
    };
  }
  return { type: 'tool-result', id: call.id, name: call.name, content, preliminary: true };
}

/**
 * The error result the model sees, or the error itself (thrown) under policy `throw`. An
 * error marked as failing the run (a nested agent's, with its `onError: 'throw'`) is thrown
 * whatever the policy.
 * @internal
 */
export function failure(error: unknown, call: ToolCall, execution: ToolExecution): ToolMessage {
  if (execution.onToolError === 'throw') throw error;
  const fatal = runFailureOf(error);
  if (fatal !== undefined) throw fatal;
  return {
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: execution.errorContent(error, call),
    isError: true,
  };
}

/**
 * A tool's value as what the model sees: its converter's text, or its text and media. A
 * converter that throws or gives anything else (no string `content`, `media` that is not
 * an array of well-formed parts) is a `ToolResultError`, which the model sees as an error
 * result instead of the whole request failing in the adapter.
 * @internal
 */
export function toResult(tool: Tool, call: ToolCall, result: unknown): ToolResultContent {
  let converted: unknown;
  try {
    converted = tool.convertResult(result);
  } catch (error) {
    throw resultError(tool, call, 'an error', error);
  }
  if (typeof converted === 'string') return { content: converted };
  if (typeof converted !== 'object' || converted === null) {
    throw resultError(tool, call, converted === null ? 'null' : typeof converted);
  }
  const { content, media, agentChunk } = converted as {
    content?: unknown;
    media?: unknown;
    agentChunk?: ToolResultContent['agentChunk'];
  };
  if (typeof content !== 'string') {
    throw resultError(tool, call, 'an object whose "content" is not a string');
  }
  // A nested agent's progress (no media with it) goes on as it is: no copy per nested chunk.
  if (agentChunk !== undefined) return converted as ToolResultContent;
  if (media === undefined) return { content };
  if (!Array.isArray(media)) {
    throw resultError(tool, call, 'an object whose "media" is not an array');
  }
  return { content, media: checkedMedia(media as readonly MediaPart[], tool, call) };
}

/** A copy of the parts, each checked as the adapters check it. */
function checkedMedia(media: readonly MediaPart[], tool: Tool, call: ToolCall): MediaPart[] {
  const copy = media.slice();
  copy.forEach((part, index) => {
    try {
      checkMediaPart(part, { provider: 'the tool loop', role: 'tool' });
    } catch (error) {
      const reason = UnsupportedMediaError.isInstance(error) ? error.reason : String(error);
      throw resultError(
        tool,
        call,
        `media part ${index} that is not well formed: ${reason}`,
        error,
      );
    }
  });
  return copy;
}

function resultError(
  tool: Tool,
  call: ToolCall,
  received: string,
  cause?: unknown,
): ToolResultError {
  return new ToolResultError({
    toolName: tool.name,
    toolCallId: call.id,
    received,
    ...(cause === undefined ? {} : { cause }),
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
