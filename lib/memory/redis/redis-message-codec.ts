import type { Message } from '../../core/message.js';
import { ChatMemoryError } from '../../errors/chat-memory-error.js';
import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
import { leadingSystemCount } from '../append-window.js';
import { fromRow, toRow, type MessageRow } from '../message-row.js';

/**
 * Which stored conversation a decode reads, for the error that names a damaged one.
 * @internal
 */
export interface RedisDecodeSource {
  conversationId: string;
  /** The conversation's hash key. */
  key: string;
}

function damaged(source: RedisDecodeSource, what: string): ChatMemoryError {
  return new ChatMemoryError({
    operation: 'read',
    conversationId: source.conversationId,
    reason: `the stored conversation at ${source.key} is damaged (${what}); delete the key.`,
  });
}

/**
 * A JSON array of rows (the systems field, or a conversation of the old layout).
 * @internal
 * @throws ChatMemoryError when it is not JSON, not an array or a row is damaged.
 */
export function decodeRowArray(source: RedisDecodeSource, json: string): Message[] {
  let rows: unknown;
  try {
    rows = JSON.parse(json);
  } catch {
    throw damaged(source, 'not JSON');
  }
  if (!Array.isArray(rows)) throw damaged(source, 'not an array');
  return rows.map((row: MessageRow, index) => toMessage(source, row, index));
}

/**
 * One list element back to its message.
 * @internal
 * @throws ChatMemoryError when it is not JSON or not a chat message.
 */
export function decodeRow(source: RedisDecodeSource, json: string, index: number): Message {
  let row: unknown;
  try {
    row = JSON.parse(json);
  } catch {
    throw damaged(source, `message ${index}: not JSON`);
  }
  return toMessage(source, row as MessageRow, index);
}

function toMessage(source: RedisDecodeSource, row: MessageRow, index: number): Message {
  const message = typeof row === 'object' && row !== null ? fromRow(row) : 'not an object';
  if (typeof message === 'string') throw damaged(source, `message ${index}: ${message}`);
  return message;
}

/**
 * The arguments of a save: the leading systems JSON ('' for none), their count, the other rows.
 * @internal
 * @throws InvalidOptionsError when `messages` is not an array.
 */
export function encodeConversation(
  conversationId: string,
  messages: readonly Message[],
  maxMediaBytes: number,
): string[] {
  const given: unknown = messages;
  if (!Array.isArray(given)) {
    throw new InvalidOptionsError({ option: 'messages', value: given, expected: 'an array' });
  }
  const rows = encodeRows(conversationId, messages, maxMediaBytes);
  const systems = leadingSystemCount(messages);
  const head = systems === 0 ? '' : `[${rows.slice(0, systems).join(',')}]`;
  return [head, String(systems), ...rows.slice(systems)];
}

/**
 * Every message as one JSON row whose text starts with its role (the scripts look at it).
 * @internal
 * @throws ChatMemoryError (nothing written) for a message that is not a chat message.
 */
export function encodeRows(
  conversationId: string,
  messages: readonly Message[],
  maxMediaBytes: number,
): string[] {
  return messages.map((message, position) => {
    const row = toRow(message, { conversationId, position, maxMediaBytes });
    if (typeof fromRow(row) === 'string') {
      throw new ChatMemoryError({
        operation: 'write',
        conversationId,
        reason: `message ${position} is not a chat message (role ${JSON.stringify(message.role)}); nothing was written.`,
      });
    }
    return JSON.stringify(row);
  });
}
