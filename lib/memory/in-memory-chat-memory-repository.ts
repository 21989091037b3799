import type { Message } from '../core/message.js';
import { appendChecked, findLastChecked } from './append-window.js';
import type { ChatMemoryRepository } from './chat-memory-repository.js';
import { StoredConversation } from './stored-conversation.js';

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
  private readonly conversations = new Map<string, StoredConversation>();

  /** @returns The ids of every conversation with at least one message. */
  findConversationIds(): Promise<string[]> {
    return Promise.resolve([...this.conversations.keys()]);
  }

  /**
   * @param conversationId The conversation to read.
   * @returns A copy of its messages; an empty array when there are none.
   */
  findByConversationId(conversationId: string): Promise<Message[]> {
    const stored = this.conversations.get(conversationId);
    return Promise.resolve(stored === undefined ? [] : stored.last(Number.MAX_SAFE_INTEGER));
  }

  /**
   * @param conversationId The conversation to replace.
   * @param messages Its new content (copied).
   * @returns A resolved Promise.
   */
  saveAll(conversationId: string, messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) this.conversations.delete(conversationId);
    else this.conversations.set(conversationId, new StoredConversation(messages));
    return Promise.resolve();
  }

  /**
   * Adds copies of `messages` at the end and trims the conversation to `keepLast`, on a
   * turn boundary (see `ChatMemoryRepository.append`); costs what it adds and drops.
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
    return appendChecked(messages, options, (keepLast) => {
      let stored = this.conversations.get(conversationId);
      if (stored === undefined)
        this.conversations.set(conversationId, (stored = new StoredConversation([])));
      stored.append(messages, keepLast);
      if (stored.size === 0) this.conversations.delete(conversationId);
      return Promise.resolve();
    });
  }

  /**
   * @param conversationId The conversation to read.
   * @param limit How many of the newest messages after the leading system ones to return.
   * @returns Copies of the leading system messages and of those newest ones.
   */
  findLast(conversationId: string, limit: number): Promise<Message[]> {
    return findLastChecked(limit, (newest) => {
      const stored = this.conversations.get(conversationId);
      return Promise.resolve(stored === undefined ? [] : stored.last(newest));
    });
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
