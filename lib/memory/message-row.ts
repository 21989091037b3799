import type { Message, ReasoningPart, ToolCall } from '../core/message.js';
import { copyToolCall } from './copy-message.js';
import { checkMediaLimit, mediaFromJson, mediaToJson } from './stored-media.js';

/**
 * One stored message: a row of the memory table. Assistant tool calls (with their ids)
 * and reasoning blocks are JSON text; tool results keep their call id and tool name in
 * their own columns; the media of user and tool messages are JSON text, inline (see
 * docs/memory.md, "Images and files").
 * @internal
 */
export interface MessageRow {
  role: string;
  content: string;
  tool_calls: string | null;
  reasoning: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  is_error: number | null;
  media: string | null;
}

/**
 * Where a row goes and how much inline media it may carry.
 * @internal
 */
export interface RowLimits {
  conversationId: string;
  position: number;
  maxMediaBytes: number;
}

/**
 * @internal
 * @param message A message to store.
 * @param limits The row's conversation and position, and the media limit.
 * @returns Its row (without the key columns).
 * @throws ChatMemoryMediaLimitError when the message's inline media is over the limit.
 */
export function toRow(message: Message, limits: RowLimits): MessageRow {
  const row: MessageRow = {
    role: message.role,
    content: message.content,
    tool_calls: null,
    reasoning: null,
    tool_call_id: null,
    tool_name: null,
    is_error: null,
    media: null,
  };
  if ((message.role === 'user' || message.role === 'tool') && message.media !== undefined) {
    checkMediaLimit(message.media, {
      conversationId: limits.conversationId,
      position: limits.position,
      limit: limits.maxMediaBytes,
    });
    row.media = mediaToJson(message.media);
  }
  if (message.role === 'assistant') {
    if (message.toolCalls !== undefined)
      row.tool_calls = JSON.stringify(message.toolCalls.map(copyToolCall));
    if (message.reasoning !== undefined) row.reasoning = JSON.stringify(message.reasoning);
  } else if (message.role === 'tool') {
    row.tool_call_id = message.toolCallId;
    row.tool_name = message.name;
    if (message.isError !== undefined) row.is_error = message.isError ? 1 : 0;
  }
  return row;
}

/**
 * @internal
 * @param row A stored row.
 * @returns The message, or a description of what is wrong with the row.
 */
export function fromRow(row: MessageRow): Message | string {
  switch (row.role) {
    case 'system':
      return { role: 'system', content: row.content };
    case 'user': {
      const message: Message = { role: 'user', content: row.content };
      if (row.media !== null && row.media !== undefined) {
        const media = mediaFromJson(row.media);
        if (media === undefined) return 'malformed media JSON';
        message.media = media;
      }
      return message;
    }
    case 'assistant': {
      const message: Message = { role: 'assistant', content: row.content };
      if (row.tool_calls !== null) {
        const calls = parseJson(row.tool_calls);
        if (!Array.isArray(calls) || !calls.every(isToolCall)) return 'malformed tool_calls JSON';
        message.toolCalls = calls;
      }
      if (row.reasoning !== null) {
        const parts = parseJson(row.reasoning);
        if (!Array.isArray(parts) || !parts.every(isReasoningPart))
          return 'malformed reasoning JSON';
        message.reasoning = parts;
      }
      return message;
    }
    case 'tool': {
      if (row.tool_call_id === null || row.tool_name === null) {
        return 'a tool message without tool_call_id or tool_name';
      }
      const message: Message = {
        role: 'tool',
        toolCallId: row.tool_call_id,
        name: row.tool_name,
        content: row.content,
      };
      if (row.is_error !== null) message.isError = row.is_error === 1;
      if (row.media !== null && row.media !== undefined) {
        const media = mediaFromJson(row.media);
        if (media === undefined) return 'malformed media JSON';
        message.media = media;
      }
      return message;
    }
    default:
      return `unknown role ${JSON.stringify(row.role)}`;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isToolCall(value: unknown): value is ToolCall {
  if (typeof value !== 'object' || value === null) return false;
  const call = value as Record<string, unknown>;
  return (
    typeof call['id'] === 'string' &&
    typeof call['name'] === 'string' &&
    typeof call['arguments'] === 'string'
  );
}

function isReasoningPart(value: unknown): value is ReasoningPart {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Record<string, unknown>)['text'] === 'string'
  );
}
