import type { Message } from '../core/message.js';
import {
  appendTrimFrom,
  checkAppend,
  checkLimit,
  leadingSystemCount,
  rejected,
} from './append-window.js';
import type { ChatMemoryRepository } from './chat-memory-repository.js';
import { copyMessage } from './copy-message.js';
import { windowStart } from './message-window.js';

/**
 * A {@link ChatMemoryRepository} in a `Map`: fast, per process, gone on restart. The
 * default repository of `MessageWindowChatMemory`. Messages are copied on the way in and
 * out, so stored history never changes behind the memory's back.
 *
 * @example
 * ```ts
 * import { InMemoryChatMemoryRepository, MessageWindowChatMemory } from 'rx-advisors';
 *
 * const repository = new InMemoryChatMemoryRepository();
 * const chatMemory = new MessageWindowChatMemory({ maxMessages: 50, repository });
 * ```
 */
export class InMemoryChatMemoryRepository implements ChatMemoryRepository {
  private readonly conversations = new Map<string, Message[]>();

  /** @returns The ids of every conversation with at least one message. */
  findConversationIds(): Promise<string[]> {
    return Promise.resolve([...this.conversations.keys()]);
  }

  /**
   * @param conversationId The conversation to read.
   * @returns A copy of its messages; an empty array when there are none.
   */
  findByConversationId(conversationId: string): Promise<Message[]> {
    const messages = this.conversations.get(conversationId);
    return Promise.resolve(messages === undefined ? [] : messages.map(copyMessage));
  }

  /**
   * @param conversationId The conversation to replace.
   * @param messages Its new content (copied).
   * @returns A resolved Promise.
   */
  saveAll(conversationId: string, messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) this.conversations.delete(conversationId);
    else this.conversations.set(conversationId, messages.map(copyMessage));
    return Promise.resolve();
  }

  /**
   * Adds copies of `messages` at the end and trims the conversation to `keepLast`, on a
   * turn boundary (see `ChatMemoryRepository.append`); copies only what is added.
   * @param conversationId The conversation to append to.
   * @param messages The messages to add; none of them a system message.
   * @param options `keepLast`: the window, system messages included.
   * @returns A resolved Promise (a rejected one for a bad argument, nothing written).
   */
  append(
    conversationId: string,
    messages: readonly Message[],
    options?: { keepLast?: number },
  ): Promise<void> {
    let keepLast: number | undefined;
    try {
      keepLast = checkAppend(messages, options);
    } catch (error) {
      return rejected(error);
    }
    if (messages.length === 0) return Promise.resolve();
    let stored = this.conversations.get(conversationId);
    if (stored === undefined) this.conversations.set(conversationId, (stored = []));
    for (const message of messages) stored.push(copyMessage(message));
    const systems = leadingSystemCount(stored);
    const from = appendTrimFrom(systems, stored.length - systems, keepLast);
    if (from !== undefined) stored.splice(systems, windowStart(stored, systems + from) - systems);
    if (stored.length === 0) this.conversations.delete(conversationId);
    return Promise.resolve();
  }

  /**
   * @param conversationId The conversation to read.
   * @param limit How many of the newest messages after the leading system ones to return.
   * @returns Copies of the leading system messages and of those newest ones.
   */
  findLast(conversationId: string, limit: number): Promise<Message[]> {
    let newest: number;
    try {
      newest = checkLimit(limit);
    } catch (error) {
      return rejected(error);
    }
    const stored = this.conversations.get(conversationId);
    if (stored === undefined) return Promise.resolve([]);
    const systems = leadingSystemCount(stored);
    const from = Math.max(systems, stored.length - newest);
    return Promise.resolve([...stored.slice(0, systems), ...stored.slice(from)].map(copyMessage));
  }

  /**
   * @param conversationId The conversation to delete.
   * @returns A resolved Promise.
   */
  deleteByConversationId(conversationId: string): Promise<void> {
    this.conversations.delete(conversationId);
    return Promise.resolve();
  }
}
