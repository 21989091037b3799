import type { Message } from '../core/message.js';
import type { ChatMemoryRepository } from './chat-memory-repository.js';
import { copyMessage } from './copy-message.js';

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
  private readonly conversations = new Map<string, readonly Message[]>();

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
   * @param conversationId The conversation to delete.
   * @returns A resolved Promise.
   */
  deleteByConversationId(conversationId: string): Promise<void> {
    this.conversations.delete(conversationId);
    return Promise.resolve();
  }
}
