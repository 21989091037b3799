import type { Message, ToolCall } from '../core/message.js';
import { copyMediaPart } from './stored-media.js';

/**
 * A copy of a message that shares no mutable part with it (tool calls, reasoning blocks
 * and media copied too, bytes included), so stored history cannot be changed through a
 * caller's reference.
 * @internal
 */
export function copyMessage(message: Message): Message {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user': {
      const copy: Message = { role: 'user', content: message.content };
      if (message.media !== undefined) copy.media = message.media.map(copyMediaPart);
      return copy;
    }
    case 'assistant': {
      const copy: Message = { role: 'assistant', content: message.content };
      if (message.toolCalls !== undefined) copy.toolCalls = message.toolCalls.map(copyToolCall);
      if (message.reasoning !== undefined)
        copy.reasoning = message.reasoning.map((part) => ({ ...part }));
      return copy;
    }
    case 'tool': {
      const copy: Message = {
        role: 'tool',
        toolCallId: message.toolCallId,
        name: message.name,
        content: message.content,
      };
      if (message.isError !== undefined) copy.isError = message.isError;
      if (message.media !== undefined) copy.media = message.media.map(copyMediaPart);
      return copy;
    }
  }
}

/**
 * A copy of a tool call with only the fields of `ToolCall` (what a repository stores),
 * `providerMetadata` deep-copied: a provider needs it back in later requests (Gemini's
 * thought signatures), so memory keeps it.
 * @internal
 */
export function copyToolCall(call: ToolCall): ToolCall {
  const copy: ToolCall = { id: call.id, name: call.name, arguments: call.arguments };
  if (call.providerMetadata !== undefined)
    copy.providerMetadata = structuredClone(call.providerMetadata);
  return copy;
}
