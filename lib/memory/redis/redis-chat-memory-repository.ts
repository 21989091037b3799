import type { Message } from '../../core/message.js';
import { validateOptions, withDefaults } from '../../core/validate-options.js';
import { ChatMemoryError, type ChatMemoryOperation } from '../../errors/chat-memory-error.js';
import { errorMessageOf } from '../../errors/error-details.js';
import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
import { appendChecked, findLastChecked, leadingSystemCount } from '../append-window.js';
import type { ChatMemoryRepository } from '../chat-memory-repository.js';
import {
  REDIS_CHAT_MEMORY_DEFAULTS,
  REDIS_CHAT_MEMORY_RULES,
  type RedisChatMemoryRepositoryOptions,
} from './redis-chat-memory-options.js';
import { APPEND_SCRIPT, CHECK_AND_SAVE_SCRIPT, SAVE_SCRIPT } from './redis-chat-memory-scripts.js';
import type { RedisCommandClient } from './redis-command-client.js';
import { redisFailure } from './redis-failure.js';
import { RedisKeys, withScriptText } from './redis-keys.js';
import {
  decodeRow,
  decodeRowArray,
  encodeConversation,
  encodeRows,
} from './redis-message-codec.js';

export type { RedisChatMemoryRepositoryOptions } from './redis-chat-memory-options.js';

/**
 * A {@link ChatMemoryRepository} in Redis, shared by every instance of a chat backend.
 * A conversation is a list of its messages (one JSON row each, every role with its tool
 * calls, results and ids) and a hash with its leading system messages and a version;
 * every write is one Lua script, so a turn is stored whole or not at all, even when the
 * server goes away mid-write. `append` (which `MessageWindowChatMemory` uses) pushes the
 * turn and trims the list in one script, so two instances appending to one conversation
 * at once both keep their turn, one after the other, never interleaved; `update` is a
 * check-and-set on the version. Conversations stored by earlier versions (one hash
 * field) are read as they are and rewritten in the list layout on their next write.
 * Failures reject with a `ChatMemoryError` (the client's error is the `cause`).
 *
 * Durability is the server's: run Redis with `appendonly yes` and `maxmemory-policy
 * noeviction` for memory you want to keep (see docs/scaling.md).
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { MessageChatMemoryAdvisor, MessageWindowChatMemory } from 'rx-advisors';
 * import { RedisChatMemoryRepository } from 'rx-advisors/memory/redis';
 *
 * const client = await createClient({ url: process.env.REDIS_URL })
 *   .on('error', (error) => console.error('redis', error))
 *   .connect();
 * const chatMemory = new MessageWindowChatMemory({
 *   maxMessages: 40,
 *   repository: new RedisChatMemoryRepository({ client }),
 * });
 * const advisor = new MessageChatMemoryAdvisor({ chatMemory });
 * ```
 */
export class RedisChatMemoryRepository implements ChatMemoryRepository {
  /** Prefix of every key the repository writes. */
  readonly keyPrefix: string;
  private readonly keys: RedisKeys;
  private readonly client: RedisCommandClient;
  private readonly maxUpdateAttempts: number;
  private readonly maxMediaBytes: number;

  /** @param options The client and, optionally, the key prefix and update attempts. */
  constructor(options: RedisChatMemoryRepositoryOptions) {
    const given = validateOptions(options, REDIS_CHAT_MEMORY_RULES);
    if (given.client === undefined) {
      throw new InvalidOptionsError({
        option: 'client',
        value: undefined,
        expected: REDIS_CHAT_MEMORY_RULES.client.expected,
      });
    }
    const merged = withDefaults(REDIS_CHAT_MEMORY_DEFAULTS, given);
    this.client = given.client;
    this.keyPrefix = merged.keyPrefix;
    this.keys = new RedisKeys(merged.keyPrefix);
    this.maxUpdateAttempts = merged.maxUpdateAttempts;
    this.maxMediaBytes = merged.maxMediaBytes;
  }

  /** @returns Every stored conversation id, sorted. */
  async findConversationIds(): Promise<string[]> {
    const ids = await this.send('list', undefined, ['SMEMBERS', this.keys.ids()]);
    return (ids as string[]).slice().sort();
  }

  /**
   * @param conversationId The conversation to read.
   * @returns Its messages in saved order; an empty array when there are none.
   */
  async findByConversationId(conversationId: string): Promise<Message[]> {
    return (await this.read(conversationId, '')).messages;
  }

  /**
   * @param conversationId The conversation to read.
   * @param limit How many of the newest messages after the leading system ones to return.
   * @returns The leading system messages and those newest ones, in saved order (one
   *   `LRANGE` of `limit` rows).
   */
  findLast(conversationId: string, limit: number): Promise<Message[]> {
    return findLastChecked(limit, async (newest) => {
      const { messages, legacy } = await this.read(conversationId, String(newest));
      if (!legacy) return messages;
      const systems = leadingSystemCount(messages);
      return [
        ...messages.slice(0, systems),
        ...messages.slice(Math.max(systems, messages.length - newest)),
      ];
    });
  }

  /**
   * Replaces a conversation in one atomic script.
   * @param conversationId The conversation to write.
   * @param messages Its complete new content (an empty array deletes it).
   * @returns A Promise that resolves once Redis ran the script.
   */
  async saveAll(conversationId: string, messages: readonly Message[]): Promise<void> {
    const args = encodeConversation(conversationId, messages, this.maxMediaBytes);
    await this.send('write', conversationId, this.keys.evalArgs(SAVE_SCRIPT, conversationId, args));
  }

  /**
   * Adds messages at the end of the list and trims it to `keepLast` on a turn boundary
   * (see `ChatMemoryRepository.append`), in one script: `RPUSH`, then the rows from the
   * cut until the first user message, then `LTRIM`. A conversation still in the old
   * one-field layout is first rewritten in the list layout (a check-and-set).
   * @param conversationId The conversation to append to.
   * @param messages The messages to add; none of them a system message.
   * @param options `keepLast`: the window, system messages included.
   * @returns A Promise that resolves once Redis ran the script.
   */
  append(
    conversationId: string,
    messages: readonly Message[],
    options?: { keepLast?: number },
  ): Promise<void> {
    return appendChecked(messages, options, async (keepLast) => {
      const rows = encodeRows(conversationId, messages, this.maxMediaBytes);
      const window = [String(keepLast ?? ''), ...rows];
      const args = this.keys.evalArgs(APPEND_SCRIPT, conversationId, window);
      for (let attempt = 1; attempt <= this.maxUpdateAttempts; attempt++) {
        if ((await this.send('write', conversationId, args)) === 1) return;
        await this.migrate(conversationId);
      }
      throw this.conflict(conversationId);
    });
  }

  /**
   * Reads, changes and writes a conversation with a check-and-set on its version,
   * retrying (up to `maxUpdateAttempts`) when another writer got in first.
   * @param conversationId The conversation to change.
   * @param change From the stored messages to the new complete content.
   * @returns A Promise that resolves once the new content is stored.
   */
  async update(
    conversationId: string,
    change: (stored: Message[]) => readonly Message[],
  ): Promise<void> {
    for (let attempt = 1; attempt <= this.maxUpdateAttempts; attempt++) {
      const { messages, version } = await this.read(conversationId, '');
      if (await this.checkAndSave(conversationId, version, change(messages))) return;
    }
    throw this.conflict(conversationId);
  }

  /**
   * @param conversationId The conversation to delete.
   * @returns A Promise that resolves once it is gone.
   */
  async deleteByConversationId(conversationId: string): Promise<void> {
    await this.send('delete', conversationId, this.keys.deleteArgs(conversationId));
  }

  /** Rewrites a conversation of the old one-field layout in the list layout, unchanged. */
  private async migrate(conversationId: string): Promise<void> {
    const { messages, version, legacy } = await this.read(conversationId, '');
    if (legacy) await this.checkAndSave(conversationId, version, messages);
  }

  private async checkAndSave(
    conversationId: string,
    version: string,
    messages: readonly Message[],
  ): Promise<boolean> {
    const encoded = encodeConversation(conversationId, messages, this.maxMediaBytes);
    const args = this.keys.evalArgs(CHECK_AND_SAVE_SCRIPT, conversationId, [version, ...encoded]);
    return (await this.send('write', conversationId, args)) === 1;
  }

  private conflict(conversationId: string): ChatMemoryError {
    return new ChatMemoryError({
      operation: 'write',
      conversationId,
      code: 'CONFLICT',
      reason:
        `${this.maxUpdateAttempts} writers got in first, one after another; nothing of this ` +
        `turn was written. Try again, or raise maxUpdateAttempts.`,
    });
  }

  /** `newest`: how many list rows ('' for all). */
  private async read(
    conversationId: string,
    newest: string,
  ): Promise<{ messages: Message[]; version: string; legacy: boolean }> {
    const reply = (await this.send(
      'read',
      conversationId,
      this.keys.readArgs(conversationId, newest),
    )) as [string, string, string, string[]];
    const [legacy, systems, version, rows] = reply;
    const source = { conversationId, key: this.keys.conversation(conversationId) };
    if (legacy !== '') {
      return { messages: decodeRowArray(source, legacy), version, legacy: true };
    }
    const messages = systems === '' ? [] : decodeRowArray(source, systems);
    rows.forEach((row, index) => messages.push(decodeRow(source, row, index)));
    return { messages, version, legacy: false };
  }

  private async send(
    operation: ChatMemoryOperation,
    conversationId: string | undefined,
    args: string[],
  ): Promise<unknown> {
    try {
      return await this.client.sendCommand(args).catch((error: unknown) => {
        // The server lost its scripts (a restart, SCRIPT FLUSH): nothing ran; send the text.
        const full = errorMessageOf(error).startsWith('NOSCRIPT')
          ? withScriptText(args)
          : undefined;
        if (full === undefined) throw error;
        return this.client.sendCommand(full);
      });
    } catch (error) {
      throw redisFailure(error, operation, conversationId);
    }
  }
}
