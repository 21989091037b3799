import type { Message } from '../../core/message.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import { ChatMemoryError, type ChatMemoryOperation } from '../../errors/chat-memory-error.js';
import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
import type { ChatMemoryRepository } from '../chat-memory-repository.js';
import { fromRow, toRow, type MessageRow } from '../sqlite/message-row.js';
import { DEFAULT_MAX_MEDIA_BYTES } from '../stored-media.js';
import { CHECK_AND_SAVE_SCRIPT, DELETE_SCRIPT, SAVE_SCRIPT } from './redis-chat-memory-scripts.js';
import type { RedisCommandClient } from './redis-command-client.js';
import { redisFailure } from './redis-failure.js';

/**
 * Options of {@link RedisChatMemoryRepository}.
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import type { RedisChatMemoryRepositoryOptions } from 'rx-advisors/memory/redis';
 * const options: RedisChatMemoryRepositoryOptions = {
 *   client: await createClient({ url: process.env.REDIS_URL }).connect(),
 *   keyPrefix: 'support:memory:',
 * };
 * ```
 */
export interface RedisChatMemoryRepositoryOptions {
  /** A connected client (the official `redis` client, or anything with `sendCommand`). The application connects and closes it. */
  client: RedisCommandClient;
  /** Prefix of every key the repository writes; default `rx-advisors:memory:`. */
  keyPrefix?: string;
  /** How often `update` re-reads and retries when another writer got in first; default 16. */
  maxUpdateAttempts?: number;
  /**
   * The most inline media (images and files given as base64 or bytes, decoded) one message
   * may carry, in bytes; default 5 MiB. A larger message fails the write with a
   * `ChatMemoryMediaLimitError`.
   */
  maxMediaBytes?: number;
}

const REDIS_CHAT_MEMORY_DEFAULTS = {
  keyPrefix: 'rx-advisors:memory:',
  maxUpdateAttempts: 16,
  maxMediaBytes: DEFAULT_MAX_MEDIA_BYTES,
} as const;

const REDIS_CHAT_MEMORY_RULES = {
  client: Rules.custom(
    "a connected Redis client with sendCommand (import { createClient } from 'redis')",
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      typeof (value as Record<string, unknown>)['sendCommand'] === 'function',
  ),
  keyPrefix: Rules.custom('a string', (value) => typeof value === 'string'),
  maxUpdateAttempts: Rules.integer(1, 1000),
  maxMediaBytes: Rules.integer(0),
} as const satisfies OptionRules<RedisChatMemoryRepositoryOptions>;

/**
 * A {@link ChatMemoryRepository} in Redis, shared by every instance of a chat backend.
 * A conversation is one hash (its messages as JSON rows, every role with its tool calls,
 * results and ids, and a version); every write is one Lua script, so a turn is stored
 * whole or not at all, even when the server goes away mid-write. `update` is a
 * check-and-set on the version: `MessageWindowChatMemory` appends through it, so two
 * instances appending to one conversation at once both keep their turn, one after the
 * other, never interleaved. Failures reject with a `ChatMemoryError` (the client's error
 * is the `cause`).
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
    this.maxUpdateAttempts = merged.maxUpdateAttempts;
    this.maxMediaBytes = merged.maxMediaBytes;
  }

  /** @returns Every stored conversation id, sorted. */
  async findConversationIds(): Promise<string[]> {
    const ids = await this.send('list', undefined, ['SMEMBERS', this.idsKey()]);
    return (ids as string[]).slice().sort();
  }

  /**
   * @param conversationId The conversation to read.
   * @returns Its messages in saved order; an empty array when there are none.
   */
  async findByConversationId(conversationId: string): Promise<Message[]> {
    return (await this.read(conversationId)).messages;
  }

  /**
   * Replaces a conversation in one atomic script.
   * @param conversationId The conversation to write.
   * @param messages Its complete new content (an empty array deletes it).
   * @returns A Promise that resolves once Redis ran the script.
   */
  async saveAll(conversationId: string, messages: readonly Message[]): Promise<void> {
    const json = this.encode(conversationId, messages);
    await this.send('write', conversationId, this.evalArgs(SAVE_SCRIPT, conversationId, [json]));
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
      const { messages, version } = await this.read(conversationId);
      const json = this.encode(conversationId, change(messages));
      const args = this.evalArgs(CHECK_AND_SAVE_SCRIPT, conversationId, [json, version]);
      if ((await this.send('write', conversationId, args)) === 1) return;
    }
    throw new ChatMemoryError({
      operation: 'write',
      conversationId,
      code: 'CONFLICT',
      reason:
        `${this.maxUpdateAttempts} writers got in first, one after another; nothing of this ` +
        `turn was written. Try again, or raise maxUpdateAttempts.`,
    });
  }

  /**
   * @param conversationId The conversation to delete.
   * @returns A Promise that resolves once it is gone.
   */
  async deleteByConversationId(conversationId: string): Promise<void> {
    await this.send('delete', conversationId, [
      'EVAL',
      DELETE_SCRIPT,
      '2',
      this.conversationKey(conversationId),
      this.idsKey(),
      conversationId,
    ]);
  }

  private async read(conversationId: string): Promise<{ messages: Message[]; version: string }> {
    const reply = (await this.send('read', conversationId, [
      'HMGET',
      this.conversationKey(conversationId),
      'm',
      'v',
    ])) as (string | null)[];
    const [json, version] = reply;
    if (json === null || json === undefined) return { messages: [], version: version ?? '0' };
    return { messages: this.decode(conversationId, json), version: version ?? '0' };
  }

  private decode(conversationId: string, json: string): Message[] {
    const damaged = (what: string) =>
      new ChatMemoryError({
        operation: 'read',
        conversationId,
        reason: `the stored conversation at ${this.conversationKey(conversationId)} is damaged (${what}); delete the key.`,
      });
    let rows: unknown;
    try {
      rows = JSON.parse(json);
    } catch {
      throw damaged('not JSON');
    }
    if (!Array.isArray(rows)) throw damaged('not an array');
    return rows.map((row: MessageRow, index) => {
      const message = typeof row === 'object' && row !== null ? fromRow(row) : 'not an object';
      if (typeof message === 'string') throw damaged(`message ${index}: ${message}`);
      return message;
    });
  }

  private encode(conversationId: string, messages: readonly Message[]): string {
    const given: unknown = messages;
    if (!Array.isArray(given)) {
      throw new InvalidOptionsError({ option: 'messages', value: given, expected: 'an array' });
    }
    if (messages.length === 0) return '';
    return JSON.stringify(
      messages.map((message, index) => {
        const row = toRow(message, {
          conversationId,
          position: index,
          maxMediaBytes: this.maxMediaBytes,
        });
        if (typeof fromRow(row) === 'string') {
          throw new ChatMemoryError({
            operation: 'write',
            conversationId,
            reason: `message ${index} is not a chat message (role ${JSON.stringify(message.role)}); nothing was written.`,
          });
        }
        return row;
      }),
    );
  }

  private evalArgs(script: string, conversationId: string, args: string[]): string[] {
    return [
      'EVAL',
      script,
      '3',
      this.conversationKey(conversationId),
      this.idsKey(),
      `${this.keyPrefix}version`,
      conversationId,
      ...args,
    ];
  }

  private async send(
    operation: ChatMemoryOperation,
    conversationId: string | undefined,
    args: string[],
  ): Promise<unknown> {
    try {
      return await this.client.sendCommand(args);
    } catch (error) {
      throw redisFailure(error, operation, conversationId);
    }
  }

  private conversationKey(conversationId: string): string {
    return `${this.keyPrefix}conversation:${conversationId}`;
  }

  private idsKey(): string {
    return `${this.keyPrefix}conversations`;
  }
}
