import { defer, type Observable } from 'rxjs';
import type { ConversationHistoryAware } from '../advisor-api/advisor-roles.js';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { Message } from '../core/message.js';
import { chatMemoryTurn } from './chat-memory-turn.js';
import type { ChatMemory } from './chat-memory.js';
import { conversationIdOf } from './conversation-id.js';
import { pairToolMessages, splitSystem } from './conversation-messages.js';
import {
  resolveChatMemoryAdvisorOptions,
  type ChatMemoryAdvisorOptions,
} from './memory-advisor-options.js';

/**
 * Options of {@link MessageChatMemoryAdvisor}.
 * @example
 * ```ts partial
 * import { Order, type MessageChatMemoryAdvisorOptions } from 'rx-advisors';
 * const insideTheLoop: MessageChatMemoryAdvisorOptions = { chatMemory, order: Order.TOOL_CALLING + 10 };
 * ```
 */
export type MessageChatMemoryAdvisorOptions = ChatMemoryAdvisorOptions;

/**
 * Chat memory as messages: sends the stored conversation before the call's own messages
 * (system messages first), and saves the turn: the user message, and when the stream
 * completes the final assistant message (plus, with `saveToolMessages`, the tool loop's
 * messages), all in one write. A failed or unsubscribed call saves the user message only.
 * The conversation is the `conversationId` advisor param.
 *
 * At its default order (`Order.CHAT_MEMORY`) it runs outside the tool loop and loads the
 * history once per call. Ordered after `Order.TOOL_CALLING` it runs inside the loop: it
 * declares `managesConversationHistory`, so the auto-registered loop runs with
 * `conversationHistory: false`, and it loads and saves every round, tool calls included.
 *
 * @example
 * ```ts
 * import { ChatClient, MessageChatMemoryAdvisor, MessageWindowChatMemory } from 'rx-advisors';
 *
 * const chatMemory = new MessageWindowChatMemory({ maxMessages: 20 });
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
 *   .build();
 * client.prompt('I am Ada.').advisorParams({ conversationId: 'c1' }).call().content();
 * ```
 */
export class MessageChatMemoryAdvisor implements Advisor, ConversationHistoryAware {
  readonly name: string;
  readonly order: number;
  /** The memory this advisor reads and writes. */
  readonly chatMemory: ChatMemory;
  /** `true` when ordered inside the tool loop (after `Order.TOOL_CALLING`). */
  readonly managesConversationHistory: boolean;
  private readonly defaultConversationId: string | undefined;
  private readonly saveToolMessages: boolean;

  /** @param options Memory, order, name, default conversation id and `saveToolMessages`; all optional. */
  constructor(options: MessageChatMemoryAdvisorOptions = {}) {
    const resolved = resolveChatMemoryAdvisorOptions(
      options,
      { name: 'MessageChatMemoryAdvisor', order: Order.CHAT_MEMORY },
      // A subclass may take options of its own: only near misses of ours are refused then.
      { unknownKeys: new.target === MessageChatMemoryAdvisor ? 'refuse' : 'typos' },
    );
    this.name = resolved.name;
    this.order = resolved.order;
    this.chatMemory = resolved.chatMemory;
    this.defaultConversationId = resolved.defaultConversationId;
    this.saveToolMessages = resolved.saveToolMessages;
    this.managesConversationHistory = resolved.order > Order.TOOL_CALLING;
  }

  /**
   * @param request The call's request (inside the loop: the round's request).
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
        prepare: withHistory,
        insideToolLoop: this.managesConversationHistory,
        saveToolMessages: this.saveToolMessages,
      }),
    );
  }
}

/** System messages first (the call's, else the stored ones), then history, then the call's messages. */
function withHistory(request: ChatRequest, history: Message[]): ChatRequest {
  if (history.length === 0) return request;
  const [storedSystem, stored] = splitSystem(history);
  const [system, messages] = splitSystem(request.messages);
  return request.withMessages([
    ...(system.length > 0 ? system : storedSystem),
    ...pairToolMessages([...stored, ...messages]),
  ]);
}
