import type { Message } from '../core/message.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import type { ChatMemoryRepository } from './chat-memory-repository.js';
import type { ChatMemoryUsageReport } from './chat-memory-usage-report.js';
import type { ChatMemory } from './chat-memory.js';
import { InMemoryChatMemoryRepository } from './in-memory-chat-memory-repository.js';
import { KeyedQueue } from './keyed-queue.js';
import {
  checkId,
  checkMessages,
  REPOSITORY_RULE,
  isSystem,
  settle,
} from './message-window-chat-memory.js';
import { messageCharacters, tokenWindow } from './token-window.js';

/**
 * Options of {@link TokenWindowChatMemory}.
 * @example
 * ```ts
 * import type { TokenWindowChatMemoryOptions } from 'rx-advisors';
 * const options: TokenWindowChatMemoryOptions = { maxTokens: 16_000, charactersPerToken: 3.5 };
 * ```
 */
export interface TokenWindowChatMemoryOptions {
  /** The token budget of a stored conversation, system messages included; default 8,000. */
  maxTokens?: number;
  /** The estimate before the provider reported anything for a conversation; default 4. */
  charactersPerToken?: number;
  /** Where conversations are stored; default a new `InMemoryChatMemoryRepository`. */
  repository?: ChatMemoryRepository;
  /** How many conversations' calibrations are kept in this process (oldest go first); default 10,000. */
  maxCalibrations?: number;
}

/** The defaults of {@link TokenWindowChatMemoryOptions} (the repository is made per memory). */
const TOKEN_WINDOW_CHAT_MEMORY_DEFAULTS = {
  maxTokens: 8000,
  charactersPerToken: 4,
  maxCalibrations: 10_000,
} as const;

const TOKEN_WINDOW_CHAT_MEMORY_RULES = {
  maxTokens: Rules.integer(1),
  charactersPerToken: Rules.positive,
  maxCalibrations: Rules.integer(0),
  repository: REPOSITORY_RULE,
} as const satisfies OptionRules<TokenWindowChatMemoryOptions>;

/**
 * A {@link ChatMemory} that keeps the newest whole turns of each conversation that fit a
 * token budget. Sizes come from the provider: the memory advisors hand `add` the input
 * tokens the turn's model calls reported and the messages they sent, and the memory
 * calibrates its tokens-per-character for the conversation with them, so the messages that
 * were sent count (summed) exactly what the provider counted. The newest messages (the
 * answer, and anything before the first report) are estimated with that ratio, or with
 * `charactersPerToken` until a report came. A turn (a user message up to the next one, its
 * tool calls with their results) is never split; the newest turn is always kept.
 *
 * @example
 * ```ts
 * import { MessageChatMemoryAdvisor, TokenWindowChatMemory } from 'rx-advisors';
 *
 * const chatMemory = new TokenWindowChatMemory({ maxTokens: 16_000 });
 * const memoryAdvisor = new MessageChatMemoryAdvisor({ chatMemory });
 * ```
 */
export class TokenWindowChatMemory implements ChatMemory {
  /** The budget per conversation. */
  readonly maxTokens: number;
  /** The store behind this memory. */
  readonly repository: ChatMemoryRepository;
  private readonly charactersPerToken: number;
  private readonly maxCalibrations: number;
  /** Tokens per character, per conversation, from the provider's latest report. */
  private readonly calibrations = new Map<string, number>();
  private readonly queue = new KeyedQueue();

  /** @param options `maxTokens`, `charactersPerToken`, `repository`, `maxCalibrations`; all optional. */
  constructor(options: TokenWindowChatMemoryOptions = {}) {
    const given = validateOptions(options, TOKEN_WINDOW_CHAT_MEMORY_RULES);
    const resolved = withDefaults(TOKEN_WINDOW_CHAT_MEMORY_DEFAULTS, given);
    this.maxTokens = resolved.maxTokens;
    this.charactersPerToken = resolved.charactersPerToken;
    this.maxCalibrations = resolved.maxCalibrations;
    this.repository = given.repository ?? new InMemoryChatMemoryRepository();
  }

  /**
   * @param conversationId The conversation to read.
   * @returns Its kept messages, oldest first, after every write queued before this call.
   */
  get(conversationId: string): Promise<Message[]> {
    return settle(() => {
      const id = checkId(conversationId);
      return this.queue.run(id, () => this.repository.findByConversationId(id));
    });
  }

  /**
   * The estimated tokens of a message in a conversation (calibrated once a report came).
   * @param conversationId The conversation whose calibration applies.
   * @param message The message.
   * @returns A positive number of tokens.
   */
  estimate(conversationId: string, message: Message): number {
    const perCharacter = this.calibrations.get(conversationId) ?? 1 / this.charactersPerToken;
    return messageCharacters(message) * perCharacter;
  }

  /**
   * Appends messages and trims the conversation to the budget, in one repository write.
   * @param conversationId The conversation to write.
   * @param messages The messages to append, in order.
   * @param usage What the turn's model calls reported and sent, to calibrate with.
   * @returns A Promise that resolves once the window is stored.
   */
  add(
    conversationId: string,
    messages: readonly Message[],
    usage?: ChatMemoryUsageReport,
  ): Promise<void> {
    return settle(() => {
      const id = checkId(conversationId);
      const added = checkMessages(messages);
      if (usage !== undefined) this.calibrate(id, usage);
      if (added.length === 0) return Promise.resolve();
      const tokensOf = (message: Message): number => this.estimate(id, message);
      const change = (stored: Message[]): Message[] => {
        const kept = added.some(isSystem) ? stored.filter((m) => !isSystem(m)) : stored;
        return tokenWindow([...kept, ...added], this.maxTokens, tokensOf).kept;
      };
      return this.queue.run(id, async () => {
        if (this.repository.update !== undefined) return this.repository.update(id, change);
        await this.repository.saveAll(id, change(await this.repository.findByConversationId(id)));
      });
    });
  }

  /**
   * @param conversationId The conversation to forget (its calibration too).
   * @returns A Promise that resolves once it is gone.
   */
  clear(conversationId: string): Promise<void> {
    return settle(() => {
      const id = checkId(conversationId);
      this.calibrations.delete(id);
      return this.queue.run(id, () => this.repository.deleteByConversationId(id));
    });
  }

  private calibrate(id: string, usage: ChatMemoryUsageReport): void {
    let characters = 0;
    for (const call of usage.calls)
      for (const message of call) characters += messageCharacters(message);
    if (!(usage.inputTokens > 0) || characters === 0 || this.maxCalibrations === 0) return;
    this.calibrations.delete(id); // re-inserted last: the Map's order is the eviction order
    this.calibrations.set(id, usage.inputTokens / characters);
    if (this.calibrations.size > this.maxCalibrations) {
      const oldest = this.calibrations.keys().next().value;
      if (oldest !== undefined) this.calibrations.delete(oldest);
    }
  }
}
