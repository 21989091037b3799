import type { Message } from '../../core/message.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import { ChatMemoryError, type ChatMemoryOperation } from '../../errors/chat-memory-error.js';
import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
import { checkAppend, checkLimit, leadingSystemCount } from '../append-window.js';
import type { ChatMemoryRepository } from '../chat-memory-repository.js';
import { fromRow, toRow, type MessageRow } from '../sqlite/message-row.js';
import { DEFAULT_MAX_MEDIA_BYTES } from '../stored-media.js';
import {
  APPEND_SCRIPT,
  CHECK_AND_SAVE_SCRIPT,
  DELETE_SCRIPT,
  READ_SCRIPT,
  SAVE_SCRIPT,
} from './redis-chat-memory-scripts.js';
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
  /** How often `update` (and `append` on a conversation in the old layout) re-reads and retries when another writer got in first; default 16. */
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
    return (await this.read(conversationId, '')).messages;
  }

  /**
   * @param conversationId The conversation to read.
   * @param limit How many of the newest messages after the leading system ones to return.
   * @returns The leading system messages and those newest ones, in saved order (one
   *   `LRANGE` of `limit` rows).
   */
  async findLast(conversationId: string, limit: number): Promise<Message[]> {
    const newest = checkLimit(limit);
    const { messages, legacy } = await this.read(conversationId, String(newest));
    if (!legacy) return messages;
    const systems = leadingSystemCount(messages);
    return [
      ...messages.slice(0, systems),
      ...messages.slice(Math.max(systems, messages.length - newest)),
    ];
  }

  /**
   * Replaces a conversation in one atomic script.
   * @param conversationId The conversation to write.
   * @param messages Its complete new content (an empty array deletes it).
   * @returns A Promise that resolves once Redis ran the script.
   */
  async saveAll(conversationId: string, messages: readonly Message[]): Promise<void> {
    const args = this.encode(conversationId, messages);
    await this.send('write', conversationId, this.evalArgs(SAVE_SCRIPT, conversationId, args));
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
  async append(
    conversationId: string,
    messages: readonly Message[],
    options?: { keepLast?: number },
  ): Promise<void> {
    const keepLast = checkAppend(messages, options);
    if (messages.length === 0) return;
    const rows = this.encodeRows(conversationId, messages, 0);
    const args = this.evalArgs(APPEND_SCRIPT, conversationId, [String(keepLast ?? ''), ...rows]);
    for (let attempt = 1; attempt <= this.maxUpdateAttempts; attempt++) {
      if ((await this.send('write', conversationId, args)) === 1) return;
      await this.migrate(conversationId);
    }
    throw this.conflict(conversationId);
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
    await this.send('delete', conversationId, [
      'EVAL',
      DELETE_SCRIPT,
      '3',
      this.conversationKey(conversationId),
      this.idsKey(),
      this.listKey(conversationId),
      conversationId,
    ]);
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
    const encoded = this.encode(conversationId, messages);
    const args = this.evalArgs(CHECK_AND_SAVE_SCRIPT, conversationId, [version, ...encoded]);
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
    const reply = (await this.send('read', conversationId, [
      'EVAL',
      READ_SCRIPT,
      '2',
      this.conversationKey(conversationId),
      this.listKey(conversationId),
      newest,
    ])) as [string, string, string, string[]];
    const [legacy, systems, version, rows] = reply;
    if (legacy !== '') {
      return { messages: this.decode(conversationId, legacy), version, legacy: true };
    }
    const messages = systems === '' ? [] : this.decode(conversationId, systems);
    rows.forEach((row, index) => messages.push(this.decodeRow(conversationId, row, index)));
    return { messages, version, legacy: false };
  }

  private damaged(conversationId: string, what: string): ChatMemoryError {
    return new ChatMemoryError({
      operation: 'read',
      conversationId,
      reason: `the stored conversation at ${this.conversationKey(conversationId)} is damaged (${what}); delete the key.`,
    });
  }

  /** A JSON array of rows (the systems field, or a conversation of the old layout). */
  private decode(conversationId: string, json: string): Message[] {
    let rows: unknown;
    try {
      rows = JSON.parse(json);
    } catch {
      throw this.damaged(conversationId, 'not JSON');
    }
    if (!Array.isArray(rows)) throw this.damaged(conversationId, 'not an array');
    return rows.map((row: MessageRow, index) => this.toMessage(conversationId, row, index));
  }

  private decodeRow(conversationId: string, json: string, index: number): Message {
    let row: unknown;
    try {
      row = JSON.parse(json);
    } catch {
      throw this.damaged(conversationId, `message ${index}: not JSON`);
    }
    return this.toMessage(conversationId, row as MessageRow, index);
  }

  private toMessage(conversationId: string, row: MessageRow, index: number): Message {
    const message = typeof row === 'object' && row !== null ? fromRow(row) : 'not an object';
    if (typeof message === 'string')
      throw this.damaged(conversationId, `message ${index}: ${message}`);
    return message;
  }

  /** The arguments of a save: the leading systems JSON ('' for none), their count, the other rows. */
  private encode(conversationId: string, messages: readonly Message[]): string[] {
    const given: unknown = messages;
    if (!Array.isArray(given)) {
      throw new InvalidOptionsError({ option: 'messages', value: given, expected: 'an array' });
    }
    const rows = this.encodeRows(conversationId, messages, 0);
    const systems = leadingSystemCount(messages);
    const head = systems === 0 ? '' : `[${rows.slice(0, systems).join(',')}]`;
    return [head, String(systems), ...rows.slice(systems)];
  }

  /** Every message as one JSON row whose text starts with its role (the scripts look at it). */
  private encodeRows(conversationId: string, messages: readonly Message[], from: number): string[] {
    return messages.map((message, index) => {
      const row = toRow(message, {
        conversationId,
        position: from + index,
        maxMediaBytes: this.maxMediaBytes,
      });
      if (typeof fromRow(row) === 'string') {
        throw new ChatMemoryError({
          operation: 'write',
          conversationId,
          reason: `message ${from + index} is not a chat message (role ${JSON.stringify(message.role)}); nothing was written.`,
        });
      }
      return JSON.stringify(row);
    });
  }

  private evalArgs(script: string, conversationId: string, args: string[]): string[] {
    return [
      'EVAL',
      script,
      '4',
      this.conversationKey(conversationId),
      this.idsKey(),
      `${this.keyPrefix}version`,
      this.listKey(conversationId),
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

  /** The list of a conversation's messages; `messages:` never collides with `conversation:`. */
  private listKey(conversationId: string): string {
    return `${this.keyPrefix}messages:${conversationId}`;
  }

  private idsKey(): string {
    return `${this.keyPrefix}conversations`;
  }
}
