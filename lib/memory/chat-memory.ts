import type { Message } from '../core/message.js';
import type { ChatMemoryUsageReport } from './chat-memory-usage-report.js';

/**
 * A conversation store with a policy: what to keep of a conversation, and how. The memory
 * advisors read a conversation once per call with `get` and write each turn with one `add`.
 *
 * Asynchronous with Promises, like `ChatMemoryRepository` (see there why). An
 * implementation must make each `add` atomic and serialise the operations on one
 * conversation, so that two calls writing the same conversation at once never interleave
 * their messages or lose one; `MessageWindowChatMemory` does.
 *
 * @example
 * ```ts
 * import { MessageWindowChatMemory, type ChatMemory } from 'rx-advisors';
 *
 * const chatMemory: ChatMemory = new MessageWindowChatMemory({ maxMessages: 20 });
 * await chatMemory.add('c1', [{ role: 'user', content: 'Hi, I am Ada.' }]);
 * await chatMemory.get('c1'); // [{ role: 'user', content: 'Hi, I am Ada.' }]
 * await chatMemory.clear('c1');
 * ```
 */
export interface ChatMemory {
  /**
   * @param conversationId The conversation to read.
   * @returns Its messages, oldest first; an empty array for a new conversation.
   */
  get(conversationId: string): Promise<Message[]>;
  /**
   * Appends messages to a conversation, atomically: all of them or none.
   * @param conversationId The conversation to write.
   * @param messages The messages to append, in order.
   * @param usage What the model calls of this turn reported and sent (the memory advisors
   *   pass it when the provider reported input tokens); a token window calibrates with it.
   * @returns A Promise that resolves once they are stored.
   */
  add(
    conversationId: string,
    messages: readonly Message[],
    usage?: ChatMemoryUsageReport,
  ): Promise<void>;
  /**
   * Forgets a conversation.
   * @param conversationId The conversation to delete.
   * @returns A Promise that resolves once it is gone.
   */
  clear(conversationId: string): Promise<void>;
}
