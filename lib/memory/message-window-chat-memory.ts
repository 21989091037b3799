import type { Message } from '../core/message.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { ChatMemoryRepository } from './chat-memory-repository.js';
import type { ChatMemory } from './chat-memory.js';
import { InMemoryChatMemoryRepository } from './in-memory-chat-memory-repository.js';
import { KeyedQueue } from './keyed-queue.js';
import { messageWindow } from './message-window.js';

/**
 * Options of {@link MessageWindowChatMemory}.
 * @example
 * ```ts
 * import { InMemoryChatMemoryRepository, type MessageWindowChatMemoryOptions } from 'rx-advisors';
 * const options: MessageWindowChatMemoryOptions = {
 *   maxMessages: 50,
 *   repository: new InMemoryChatMemoryRepository(),
 * };
 * ```
 */
export interface MessageWindowChatMemoryOptions {
  /** How many messages to keep per conversation, system messages included; default 20. */
  maxMessages?: number;
  /** Where conversations are stored; default a new `InMemoryChatMemoryRepository`. */
  repository?: ChatMemoryRepository;
}

/** The defaults of {@link MessageWindowChatMemoryOptions} (the repository is made per memory). */
const MESSAGE_WINDOW_CHAT_MEMORY_DEFAULTS = { maxMessages: 20 } as const;

/** @internal The `repository` option's rule, shared with `TokenWindowChatMemory`. */
export const REPOSITORY_RULE = Rules.custom(
  'a ChatMemoryRepository (findConversationIds, findByConversationId, saveAll, deleteByConversationId)',
  (value) => isRepository(value),
);

function isRepository(value: unknown): value is ChatMemoryRepository {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return ['findConversationIds', 'findByConversationId', 'saveAll', 'deleteByConversationId'].every(
    (method) => typeof candidate[method] === 'function',
  );
}

const MESSAGE_WINDOW_CHAT_MEMORY_RULES = {
  maxMessages: Rules.integer(1),
  repository: REPOSITORY_RULE,
} as const satisfies OptionRules<MessageWindowChatMemoryOptions>;

/**
 * A {@link ChatMemory} that keeps the last `maxMessages` messages of each conversation.
 * System messages are always kept (new ones given to `add` replace the stored ones), and
 * the window is cut at turn boundaries: it never starts with a tool result whose call was
 * cut off, nor with an assistant tool-call message without its results.
 *
 * Operations on one conversation run one after another (in this process), so two calls
 * writing the same conversation at once never interleave or lose messages; different
 * conversations run independently.
 *
 * @example
 * ```ts
 * import { MessageWindowChatMemory } from 'rx-advisors';
 * import { SqliteChatMemoryRepository } from 'rx-advisors/memory/sqlite';
 * import Database from 'better-sqlite3';
 *
 * const chatMemory = new MessageWindowChatMemory({
 *   maxMessages: 20,
 *   repository: new SqliteChatMemoryRepository({ database: new Database('chat.db') }),
 * });
 * ```
 */
export class MessageWindowChatMemory implements ChatMemory {
  /** The window size. */
  readonly maxMessages: number;
  /** The store behind this memory. */
  readonly repository: ChatMemoryRepository;
  private readonly queue = new KeyedQueue();

  /** @param options `maxMessages` (default 20) and `repository` (default in-memory). */
  constructor(options: MessageWindowChatMemoryOptions = {}) {
    const given = validateOptions(options, MESSAGE_WINDOW_CHAT_MEMORY_RULES);
    this.maxMessages = withDefaults(MESSAGE_WINDOW_CHAT_MEMORY_DEFAULTS, given).maxMessages;
    // A new repository per memory, never one in the defaults: a shared one would mix memories.
    this.repository = given.repository ?? new InMemoryChatMemoryRepository();
  }

  /**
   * @param conversationId The conversation to read.
   * @returns Its kept messages, oldest first, after every write queued before this call.
   */
  get(conversationId: string): Promise<Message[]> {
    return settle(() => {
      const id = checkId(conversationId);
      return this.queue.run(id, async () => {
        if (this.repository.findLast === undefined) return this.repository.findByConversationId(id);
        // One more than the window: a longer conversation must still show messageWindow
        // that it is over, so that the cut falls on a turn boundary, as on the whole of it.
        const newest = await this.repository.findLast(id, this.maxMessages + 1);
        // What `append` stores is the window already: cut only a longer conversation.
        return newest.length <= this.maxMessages ? newest : messageWindow(newest, this.maxMessages);
      });
    });
  }

  /**
   * Appends messages and trims the conversation to the window, in one repository write:
   * `append` when the repository has it and no system message is added (it costs the
   * turn, not the conversation), else a read-modify-write (`update`, or a read and
   * `saveAll`), which also replaces the stored system messages with the added ones.
   * @param conversationId The conversation to write.
   * @param messages The messages to append, in order.
   * @returns A Promise that resolves once the window is stored.
   */
  add(conversationId: string, messages: readonly Message[]): Promise<void> {
    return settle(() => {
      const id = checkId(conversationId);
      const added = checkMessages(messages);
      if (added.length === 0) return Promise.resolve();
      const change = (stored: Message[]): Message[] => {
        const kept = added.some(isSystem) ? stored.filter((m) => !isSystem(m)) : stored;
        return messageWindow([...kept, ...added], this.maxMessages);
      };
      const appendOnly = !added.some(isSystem) && this.repository.append !== undefined;
      return this.queue.run(id, async () => {
        if (appendOnly) return this.repository.append?.(id, added, { keepLast: this.maxMessages });
        // A repository that can change a conversation atomically keeps other processes' turns too.
        if (this.repository.update !== undefined) return this.repository.update(id, change);
        await this.repository.saveAll(id, change(await this.repository.findByConversationId(id)));
      });
    });
  }

  /**
   * @param conversationId The conversation to forget.
   * @returns A Promise that resolves once it is gone.
   */
  clear(conversationId: string): Promise<void> {
    return settle(() => {
      const id = checkId(conversationId);
      return this.queue.run(id, () => this.repository.deleteByConversationId(id));
    });
  }
}

/**
 * Runs `start`, turning a synchronous throw (bad input) into a rejected Promise.
 * @internal Shared with `TokenWindowChatMemory`.
 */
export function settle<T>(start: () => Promise<T>): Promise<T> {
  try {
    return start();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** @internal Shared with `TokenWindowChatMemory`. */
export function isSystem(message: Message): boolean {
  return message.role === 'system';
}

/** @internal Shared with `TokenWindowChatMemory`. */
export function checkId(conversationId: string): string {
  const given: unknown = conversationId;
  if (typeof given !== 'string' || given === '') {
    throw new InvalidOptionsError({
      option: 'conversationId',
      value: given,
      expected: 'a non-empty string',
    });
  }
  return given;
}

/** @internal Shared with `TokenWindowChatMemory`. */
export function checkMessages(messages: readonly Message[]): readonly Message[] {
  const given: unknown = messages;
  if (!Array.isArray(given)) {
    throw new InvalidOptionsError({
      option: 'messages',
      value: given,
      expected: 'an array of messages',
    });
  }
  messages.forEach((message, index) => {
    if (!isMessage(message)) {
      throw new InvalidOptionsError({
        option: `messages[${index}]`,
        value: message,
        expected:
          "a message: { role: 'system' | 'user' | 'assistant', content: string } or " +
          "{ role: 'tool', toolCallId: string, name: string, content: string }",
      });
    }
  });
  return messages;
}

function isMessage(value: unknown): value is Message {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  if (typeof message['content'] !== 'string') return false;
  switch (message['role']) {
    case 'system':
    case 'user':
      return true;
    case 'assistant':
      return message['toolCalls'] === undefined || Array.isArray(message['toolCalls']);
    case 'tool':
      return typeof message['toolCallId'] === 'string' && typeof message['name'] === 'string';
    default:
      return false;
  }
}
