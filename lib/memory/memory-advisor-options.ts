import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES } from '../advisor-api/validate-advisor-identity.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
  type UnknownKeyPolicy,
} from '../core/validate-options.js';
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

/** The defaults of {@link ChatMemoryAdvisorOptions} (each advisor adds its own `name`). */
const CHAT_MEMORY_ADVISOR_DEFAULTS = {
  order: Order.CHAT_MEMORY,
  saveToolMessages: false,
} as const satisfies ChatMemoryAdvisorOptions;

const CHAT_MEMORY_ADVISOR_RULES = {
  ...ADVISOR_IDENTITY_RULES,
  chatMemory: Rules.custom(
    'a ChatMemory (get, add, clear), e.g. new MessageWindowChatMemory()',
    (value) => isChatMemory(value),
  ),
  defaultConversationId: Rules.custom(
    'a non-empty string, or no value (then calls must pass a conversationId)',
    (value) => typeof value === 'string' && value !== '',
  ),
  saveToolMessages: Rules.boolean,
} as const satisfies OptionRules<ChatMemoryAdvisorOptions>;

/**
 * Validates and fills in the shared advisor options. The default `chatMemory` is a new
 * `MessageWindowChatMemory` per advisor, never one shared instance.
 * @internal
 */
export function resolveChatMemoryAdvisorOptions(
  options: ChatMemoryAdvisorOptions,
  defaults: { name: string; order?: number },
  policy: UnknownKeyPolicy = {},
): ResolvedChatMemoryAdvisorOptions {
  const given = validateOptions(options, CHAT_MEMORY_ADVISOR_RULES, '', policy);
  const { order, name, saveToolMessages } = withDefaults(
    { ...CHAT_MEMORY_ADVISOR_DEFAULTS, ...defaults },
    given,
  );
  return {
    chatMemory: given.chatMemory ?? new MessageWindowChatMemory(),
    order,
    name,
    defaultConversationId: given.defaultConversationId,
    saveToolMessages,
  };
}

function isChatMemory(value: unknown): value is ChatMemory {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return ['get', 'add', 'clear'].every((method) => typeof candidate[method] === 'function');
}
