import { defer, type Observable } from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { Message } from '../core/message.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import { chatMemoryTurn } from './chat-memory-turn.js';
import type { ChatMemory } from './chat-memory.js';
import { conversationIdOf } from './conversation-id.js';
import { splitSystem } from './conversation-messages.js';
import {
  resolveChatMemoryAdvisorOptions,
  type ChatMemoryAdvisorOptions,
} from './memory-advisor-options.js';

/**
 * Options of {@link PromptChatMemoryAdvisor}.
 * @example
 * ```ts partial
 * import type { PromptChatMemoryAdvisorOptions } from 'rx-advisors';
 * const options: PromptChatMemoryAdvisorOptions = {
 *   chatMemory,
 *   systemTemplate: '{instructions}\n\nEarlier in this conversation:\n{memory}',
 * };
 * ```
 */
export interface PromptChatMemoryAdvisorOptions extends ChatMemoryAdvisorOptions {
  /**
   * The system text sent when there is history: `{instructions}` is replaced by the
   * call's system text, `{memory}` by the rendered conversation. Both must appear.
   * Default: {@link PromptChatMemoryAdvisor.DEFAULT_TEMPLATE}.
   */
  systemTemplate?: string;
}

/** The rules of {@link PromptChatMemoryAdvisorOptions}' own options (the shared ones are checked too). */
const PROMPT_CHAT_MEMORY_ADVISOR_RULES = {
  order: Rules.custom(
    `at most Order.TOOL_CALLING (${Order.TOOL_CALLING}): a transcript in the system text cannot carry the loop's tool calls; use MessageChatMemoryAdvisor inside the loop`,
    (value) => typeof value === 'number' && value <= Order.TOOL_CALLING,
  ),
  systemTemplate: Rules.custom(
    'a string containing both {instructions} and {memory}',
    (value) =>
      typeof value === 'string' && value.includes('{memory}') && value.includes('{instructions}'),
  ),
} as const satisfies OptionRules<PromptChatMemoryAdvisorOptions>;

/**
 * Chat memory as text: renders the stored conversation into the system message (one
 * `role: text` line per message) instead of sending it as messages, for models or
 * prompts where a transcript works better than a message history. Saves turns exactly
 * like `MessageChatMemoryAdvisor`. It belongs outside the tool loop: an order after
 * `Order.TOOL_CALLING` is rejected.
 *
 * @example
 * ```ts
 * import { ChatClient, MessageWindowChatMemory, PromptChatMemoryAdvisor } from 'rx-advisors';
 *
 * const client = ChatClient.builder(model)
 *   .defaultSystem('Answer briefly.')
 *   .defaultAdvisors(new PromptChatMemoryAdvisor({ chatMemory: new MessageWindowChatMemory() }))
 *   .build();
 * client.prompt('What is my name?').advisorParams({ conversationId: 'c1' }).call().content();
 * ```
 */
export class PromptChatMemoryAdvisor implements Advisor {
  /** The default `systemTemplate`. */
  static readonly DEFAULT_TEMPLATE =
    '{instructions}\n\nThe conversation so far, oldest first. Use it to answer consistently ' +
    'with what was said before.\n<conversation-memory>\n{memory}\n</conversation-memory>';

  readonly name: string;
  readonly order: number;
  /** The memory this advisor reads and writes. */
  readonly chatMemory: ChatMemory;
  private readonly defaultConversationId: string | undefined;
  private readonly saveToolMessages: boolean;
  private readonly systemTemplate: string;

  /** @param options Memory, order, name, default conversation id, `saveToolMessages` and `systemTemplate`. */
  constructor(options: PromptChatMemoryAdvisorOptions = {}) {
    const resolved = resolveChatMemoryAdvisorOptions(
      options,
      { name: 'PromptChatMemoryAdvisor' },
      { known: ['systemTemplate'] },
    );
    const { systemTemplate } = withDefaults(
      { systemTemplate: PromptChatMemoryAdvisor.DEFAULT_TEMPLATE },
      // The shared options were checked (and unknown keys refused) just above.
      validateOptions(options, PROMPT_CHAT_MEMORY_ADVISOR_RULES, '', { unknownKeys: 'allow' }),
    );
    this.name = resolved.name;
    this.order = resolved.order;
    this.chatMemory = resolved.chatMemory;
    this.defaultConversationId = resolved.defaultConversationId;
    this.saveToolMessages = resolved.saveToolMessages;
    this.systemTemplate = systemTemplate;
  }

  /**
   * @param request The call's request.
   * @param chain The rest of the chain.
   * @returns The chain's chunks, unchanged; completes once the turn is saved.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() =>
      chatMemoryTurn({
        chatMemory: this.chatMemory,
        conversationId: conversationIdOf(request, this.name, this.defaultConversationId),
        request,
        chain,
        prepare: (call, history) => this.withMemoryText(call, history),
        insideToolLoop: false,
        saveToolMessages: this.saveToolMessages,
      }),
    );
  }

  private withMemoryText(request: ChatRequest, history: Message[]): ChatRequest {
    const memory = renderMemory(history);
    if (memory === '') return request;
    const [system, messages] = splitSystem(request.messages);
    const instructions = system.map((message) => message.content).join('\n\n');
    // One pass over the template, so `{memory}` inside the instructions or a `$&` inside
    // the memory text stays literal.
    const text = this.systemTemplate
      .replace(/\{(instructions|memory)\}/g, (_match, key: string) =>
        key === 'memory' ? memory : instructions,
      )
      .trim();
    return request.withMessages([{ role: 'system', content: text }, ...messages]);
  }
}

/** One line per message with text; tool calls are named, system messages left out. */
function renderMemory(history: readonly Message[]): string {
  const lines: string[] = [];
  for (const message of history) {
    switch (message.role) {
      case 'system':
        break;
      case 'user':
        lines.push(`user: ${message.content}`);
        break;
      case 'assistant': {
        const calls = message.toolCalls?.map((call) => `${call.name}(${call.arguments})`);
        if (message.content !== '') lines.push(`assistant: ${message.content}`);
        if (calls !== undefined && calls.length > 0)
          lines.push(`assistant called: ${calls.join(', ')}`);
        break;
      }
      case 'tool':
        lines.push(`tool ${message.name}: ${message.content}`);
        break;
    }
  }
  return lines.join('\n');
}
