import type { Message } from '../core/message.js';

/**
 * Where chat memory keeps conversations: every role, tool calls and tool results included
 * with their ids, in a stable order.
 *
 * Asynchronous with Promises (not Observables): every operation is one request with one
 * answer, which is exactly what a Promise models, and the drivers a repository wraps
 * (pg, redis, mongodb, fetch) are Promise-based, so an implementation is a few `async`
 * methods. The memory advisors lift the Promises into their streams with `defer`/`from`
 * at the edge. Writes are deliberately not cancellable: an unsubscribed call must never
 * leave a conversation half-written.
 *
 * Contract: `saveAll` replaces the conversation with `messages`, whole or not at all (one
 * transaction); `findByConversationId` returns the messages in the order they were saved
 * (an empty array for an unknown conversation) and copies the caller may change. Callers
 * (`MessageWindowChatMemory`) serialise the operations on one conversation. The optional
 * `update`, `append` and `findLast` let a memory work on a conversation without reading
 * and rewriting all of it; a repository with only the four required methods works too.
 *
 * @example
 * ```ts partial
 * import type { ChatMemoryRepository, Message } from 'rx-advisors';
 *
 * class RedisChatMemoryRepository implements ChatMemoryRepository {
 *   constructor(private readonly redis: RedisClient) {}
 *   async findConversationIds() {
 *     return (await this.redis.keys('chat:*')).map((key) => key.slice(5));
 *   }
 *   async findByConversationId(conversationId: string) {
 *     return JSON.parse((await this.redis.get(`chat:${conversationId}`)) ?? '[]') as Message[];
 *   }
 *   async saveAll(conversationId: string, messages: readonly Message[]) {
 *     await this.redis.set(`chat:${conversationId}`, JSON.stringify(messages));
 *   }
 *   async deleteByConversationId(conversationId: string) {
 *     await this.redis.del(`chat:${conversationId}`);
 *   }
 * }
 * ```
 */
export interface ChatMemoryRepository {
  /**
   * @returns The ids of every stored conversation.
   */
  findConversationIds(): Promise<string[]>;
  /**
   * @param conversationId The conversation to read.
   * @returns Its messages in saved order; an empty array when there are none.
   */
  findByConversationId(conversationId: string): Promise<Message[]>;
  /**
   * Replaces a conversation's messages, atomically.
   * @param conversationId The conversation to write.
   * @param messages Its complete new content (an empty array leaves it empty).
   * @returns A Promise that resolves once the write is durable.
   */
  saveAll(conversationId: string, messages: readonly Message[]): Promise<void>;
  /**
   * @param conversationId The conversation to delete.
   * @returns A Promise that resolves once it is gone.
   */
  deleteByConversationId(conversationId: string): Promise<void>;
  /**
   * Optional: reads a conversation, applies `change` and writes the result as ONE atomic
   * step against every other writer, in this process or another (a row lock, a
   * check-and-set). `MessageWindowChatMemory` uses it when present, so that two instances
   * appending to one conversation at once lose nothing; without it, its read and write are
   * serialised in this process only. `change` may be called again after a conflict.
   * @param conversationId The conversation to change.
   * @param change From the stored messages to the new complete content.
   * @returns A Promise that resolves once the new content is durable.
   */
  update?(conversationId: string, change: (stored: Message[]) => readonly Message[]): Promise<void>;
  /**
   * Optional: adds `messages` after the conversation's last message and, with `keepLast`,
   * trims it to a window, as ONE atomic step against every other writer. Its result is
   * `saveAll(id, messageWindow([...stored, ...messages], keepLast))` (see docs/memory.md,
   * "The repository contract"): when more than `keepLast` messages are stored, the oldest
   * non-system messages go so that at most `keepLast` remain (system messages count, and
   * are never dropped), and the kept part starts at the first user message at or after
   * that cut, else at the first message that is not a tool result (else none is kept).
   * Without `keepLast` nothing is dropped. `MessageWindowChatMemory` uses it when present,
   * so that a turn costs its own messages and the ones it pushes out, not the whole
   * conversation. System messages cannot be appended (they are written by `saveAll` or
   * `update`, first in the conversation).
   * @param conversationId The conversation to append to.
   * @param messages The messages to add, in order; none of them a system message.
   * @param options `keepLast`: the window to trim to, system messages included.
   * @returns A Promise that resolves once the messages are durable.
   */
  append?(
    conversationId: string,
    messages: readonly Message[],
    options?: { keepLast?: number },
  ): Promise<void>;
  /**
   * Optional: the conversation's leading system messages and the newest `limit` messages
   * after them, in stored order, at a cost that grows with `limit`, not with the
   * conversation. `MessageWindowChatMemory.get` reads through it when present.
   * @param conversationId The conversation to read.
   * @param limit How many of the newest non-leading-system messages to return (0 or more).
   * @returns Copies of those messages; an empty array for an unknown conversation.
   */
  findLast?(conversationId: string, limit: number): Promise<Message[]>;
}
