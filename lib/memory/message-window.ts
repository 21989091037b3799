import type { Message } from '../core/message.js';

/**
 * The messages a window of `maxMessages` keeps: every system message (placed first),
 * then the newest other messages that fit, in order. The cut falls on a turn boundary: the kept part starts
 * at a user message when one is in reach, otherwise at the first message that is not a
 * tool result, and never with a tool result whose call was cut off.
 *
 * ```
 * maxMessages 4:  [sys, u1, a1(call), t1, a1', u2, a2]
 * kept:           [sys, u2, a2]            (u1's turn does not fit whole; t1 cannot start)
 * ```
 * @internal
 * @param messages The whole conversation, oldest first.
 * @param maxMessages The window size (system messages count).
 * @returns A new array of the kept messages.
 */
export function messageWindow(messages: readonly Message[], maxMessages: number): Message[] {
  const system: Message[] = [];
  const others: Message[] = [];
  for (const message of messages) (message.role === 'system' ? system : others).push(message);
  if (messages.length <= maxMessages) return [...system, ...others];
  const room = Math.max(0, maxMessages - system.length);
  const start = windowStart(others, others.length - room);
  return [...system, ...others.slice(start)];
}

/**
 * The first index at or after `earliest` where a window may begin: the first user message,
 * else the first message that is not a tool result, else `messages.length`.
 * @internal Shared with `InMemoryChatMemoryRepository.append`.
 */
export function windowStart(messages: readonly Message[], earliest: number): number {
  let fallback = -1;
  for (let i = Math.max(0, earliest); i < messages.length; i++) {
    const role = messages[i]?.role;
    if (role === 'user') return i;
    if (fallback === -1 && role !== 'tool') fallback = i;
  }
  return fallback === -1 ? messages.length : fallback;
}
