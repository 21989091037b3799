import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { ChatMemory } from './chat-memory.js';
import { MessageWindowChatMemory } from './message-window-chat-memory.js';

/**
 * The options both chat memory advisors share.
 * @example
 * ```ts
 * import { MessageWindowChatMemory, type ChatMemoryAdvisorOptions } from 'rx-advisors';
 * const options: ChatMemoryAdvisorOptions = {
 *   chatMemory: new MessageWindowChatMemory({ maxMessages: 30 }),
 *   saveToolMessages: true,
 * };
 * ```
 */
export interface ChatMemoryAdvisorOptions {
  /** Where conversations live; default a new `MessageWindowChatMemory()` (in memory, 20 messages). */
  chatMemory?: ChatMemory;
  /** Position in the chain; default `Order.CHAT_MEMORY` (outside the tool loop). */
  order?: number;
  /** The advisor's name; defaults to its class name. */
  name?: string;
  /**
   * The conversation of calls without a `conversationId` advisor param. Without one, such
   * a call fails with `MissingConversationIdError`: silently sharing one conversation
   * between users is the worse default.
   */
  defaultConversationId?: string;
  /**
   * Outside the tool loop: also save the loop's assistant tool-call messages and tool
   * results (in order, before the final answer). Default `false`: the final answer only.
   */
  saveToolMessages?: boolean;
}

/** Validated options. @internal */
export interface ResolvedChatMemoryAdvisorOptions {
  chatMemory: ChatMemory;
  order: number;
  name: string;
  defaultConversationId: string | undefined;
  saveToolMessages: boolean;
}

/**
 * Validates and fills in the shared advisor options.
 * @internal
 */
export function resolveChatMemoryAdvisorOptions(
  options: ChatMemoryAdvisorOptions,
  defaults: { name: string; order: number },
): ResolvedChatMemoryAdvisorOptions {
  const {
    chatMemory = new MessageWindowChatMemory(),
    order = defaults.order,
    name = defaults.name,
    defaultConversationId,
    saveToolMessages = false,
  } = options;
  const memory: unknown = chatMemory;
  if (!isChatMemory(memory)) {
    throw new InvalidOptionsError({
      option: 'chatMemory',
      value: memory,
      expected: 'a ChatMemory (get, add, clear), e.g. new MessageWindowChatMemory()',
    });
  }
  if (typeof order !== 'number' || Number.isNaN(order)) {
    throw new InvalidOptionsError({
      option: 'order',
      value: order,
      expected: 'a number (see Order)',
    });
  }
  if (typeof name !== 'string' || name === '') {
    throw new InvalidOptionsError({ option: 'name', value: name, expected: 'a non-empty string' });
  }
  const fallback: unknown = defaultConversationId;
  if (fallback !== undefined && (typeof fallback !== 'string' || fallback === '')) {
    throw new InvalidOptionsError({
      option: 'defaultConversationId',
      value: fallback,
      expected: 'a non-empty string, or no value (then calls must pass a conversationId)',
    });
  }
  if (typeof saveToolMessages !== 'boolean') {
    throw new InvalidOptionsError({
      option: 'saveToolMessages',
      value: saveToolMessages,
      expected: 'true or false',
    });
  }
  return { chatMemory: memory, order, name, defaultConversationId, saveToolMessages };
}

function isChatMemory(value: unknown): value is ChatMemory {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return ['get', 'add', 'clear'].every((method) => typeof candidate[method] === 'function');
}
