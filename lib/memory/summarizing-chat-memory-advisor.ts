import { config, defer, finalize, firstValueFrom, isObservable, map, type Observable } from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import { aggregate } from '../core/aggregate.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatModel } from '../core/chat-model.js';
import { ChatRequest } from '../core/chat-request.js';
import type { Message } from '../core/message.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { chatMemoryTurn } from './chat-memory-turn.js';
import type { ChatMemory } from './chat-memory.js';
import { conversationIdOf } from './conversation-id.js';
import { pairToolMessages, splitSystem } from './conversation-messages.js';
import {
  droppedFrom,
  isSummaryMessage,
  summaryMessage,
  summaryOf,
  transcriptText,
} from './conversation-summary.js';
import { KeyedQueue } from './keyed-queue.js';
import {
  resolveChatMemoryAdvisorOptions,
  type ChatMemoryAdvisorOptions,
} from './memory-advisor-options.js';

/**
 * What a summarizer function gets: the summary so far, the messages the window dropped
 * since, and a ready prompt (an instruction and the transcript) to send to any model.
 * @example
 * ```ts
 * import type { SummaryRequest } from 'rx-advisors';
 * const describe = (r: SummaryRequest) => `${r.dropped.length} messages for ${r.conversationId}`;
 * ```
 */
export interface SummaryRequest {
  conversationId: string;
  previousSummary: string | undefined;
  dropped: readonly Message[];
  /** `[system: instructions, user: previous summary + transcript of dropped]`. */
  messages: Message[];
}

/**
 * Produces a summary: a `ChatModel`, or a function (a `ChatClient` call, for example).
 * @example
 * ```ts partial
 * import type { Summarizer } from 'rx-advisors';
 * const summarizer: Summarizer = ({ messages }) =>
 *   client.prompt().messages(...messages).call().content();
 * ```
 */
export type Summarizer =
  ChatModel | ((request: SummaryRequest) => Observable<string> | PromiseLike<string>);

/**
 * Options of {@link SummarizingChatMemoryAdvisor}: those of `MessageChatMemoryAdvisor`
 * plus the summarizer.
 * @example
 * ```ts partial
 * import { TokenWindowChatMemory, type SummarizingChatMemoryAdvisorOptions } from 'rx-advisors';
 * const options: SummarizingChatMemoryAdvisorOptions = {
 *   chatMemory: new TokenWindowChatMemory({ maxTokens: 8000 }),
 *   summarizer: cheapModel,
 * };
 * ```
 */
export interface SummarizingChatMemoryAdvisorOptions extends ChatMemoryAdvisorOptions {
  /** The model call that writes the summary (required). */
  summarizer: Summarizer;
  /** The summarizer's instruction (system message). */
  instructions?: string;
  /** Dropped messages kept for a failed summary to retry with, per conversation; default 200 (oldest go). */
  maxPendingMessages?: number;
}

const SUMMARY_DEFAULTS = {
  instructions:
    'You keep a running summary of a conversation between a user and an assistant. ' +
    'Merge the previous summary and the new messages into one short summary that keeps ' +
    'names, facts, decisions and open questions. Answer with the summary only.',
  maxPendingMessages: 200,
} as const;

const SUMMARY_RULES = {
  summarizer: Rules.required(
    Rules.custom(
      'a ChatModel (with stream(request)) or a function returning an Observable or Promise of the summary',
      (value) => typeof value === 'function' || isChatModel(value),
    ),
  ),
  instructions: Rules.nonEmptyString,
  maxPendingMessages: Rules.integer(1),
} as const satisfies OptionRules<
  Omit<SummarizingChatMemoryAdvisorOptions, keyof ChatMemoryAdvisorOptions>
>;

/**
 * A memory advisor (history as messages, like `MessageChatMemoryAdvisor`) that keeps a
 * running summary of what the window dropped. After a call's stream completes and its turn
 * is saved, it compares the conversation before and after: if turns were dropped, it asks
 * the summarizer, in the background, to merge them into the summary, which is stored in the
 * conversation as a marked system message (so every repository keeps it) and sent with the
 * next calls after the call's system message. The answer never waits for a summary; a failed
 * summary keeps the dropped messages (in this process) and is retried after the next turn.
 * Outside the tool loop only.
 *
 * @example
 * ```ts partial
 * import { ChatClient, SummarizingChatMemoryAdvisor, TokenWindowChatMemory } from 'rx-advisors';
 *
 * const memoryAdvisor = new SummarizingChatMemoryAdvisor({
 *   chatMemory: new TokenWindowChatMemory({ maxTokens: 8000 }),
 *   summarizer: ({ messages }) => cheapClient.prompt().messages(...messages).call().content(),
 * });
 * const client = ChatClient.builder(model).defaultAdvisors(memoryAdvisor).build();
 * ```
 */
export class SummarizingChatMemoryAdvisor implements Advisor {
  readonly name: string;
  readonly order: number;
  /** The memory this advisor reads and writes. */
  readonly chatMemory: ChatMemory;
  private readonly defaultConversationId: string | undefined;
  private readonly saveToolMessages: boolean;
  private readonly summarizer: Summarizer;
  private readonly instructions: string;
  private readonly maxPending: number;
  /** Dropped messages not summarized yet, per conversation (a failed summary's retry). */
  private readonly pending = new Map<string, Message[]>();
  private readonly queue = new KeyedQueue();
  private readonly running = new Set<Promise<void>>();

  /** @param options The memory advisor's options plus `summarizer` (required). */
  constructor(options: SummarizingChatMemoryAdvisorOptions) {
    const { summarizer, instructions, maxPendingMessages, ...memoryOptions } = options ?? {};
    const own = withDefaults(
      SUMMARY_DEFAULTS,
      validateOptions({ summarizer, instructions, maxPendingMessages }, SUMMARY_RULES),
    );
    const resolved = resolveChatMemoryAdvisorOptions(memoryOptions, {
      name: 'SummarizingChatMemoryAdvisor',
      order: Order.CHAT_MEMORY,
    });
    if (resolved.order > Order.TOOL_CALLING) {
      throw new InvalidOptionsError({
        option: 'order',
        value: resolved.order,
        expected:
          'an order before Order.TOOL_CALLING (summaries are per turn, outside the tool loop)',
      });
    }
    this.name = resolved.name;
    this.order = resolved.order;
    this.chatMemory = resolved.chatMemory;
    this.defaultConversationId = resolved.defaultConversationId;
    this.saveToolMessages = resolved.saveToolMessages;
    this.summarizer = summarizer;
    this.instructions = own.instructions;
    this.maxPending = own.maxPendingMessages;
  }

  /**
   * Sends the stored summary and conversation with the call, saves the turn, then (in the
   * background) summarizes what the window dropped.
   * @param request The call's request (its `conversationId` advisor param names the conversation).
   * @param chain The rest of the chain.
   * @returns The chain's chunks, completing once the turn is saved.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      const conversationId = conversationIdOf(request, this.name, this.defaultConversationId);
      let history: Message[] | undefined;
      return chatMemoryTurn({
        chatMemory: this.chatMemory,
        conversationId,
        request,
        chain,
        prepare: (call, stored) => {
          history = stored;
          return withSummary(call, stored);
        },
        insideToolLoop: false,
        saveToolMessages: this.saveToolMessages,
      }).pipe(
        // After the stream ended, whichever way: a failed or unsubscribed call saves its user
        // message too, and that write may drop turns as well.
        finalize(() => {
          if (history !== undefined) this.summarizeLater(conversationId, history);
        }),
      );
    });
  }

  /**
   * Resolves once every summary started so far has settled (for tests and graceful shutdown).
   * @returns A Promise that never rejects.
   */
  async whenIdle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private summarizeLater(conversationId: string, before: Message[]): void {
    const job = this.queue
      .run(conversationId, () => this.summarize(conversationId, before))
      // Nobody is left to receive the error; the dropped messages wait for the next turn.
      .catch((error: unknown) => config.onUnhandledError?.(error));
    this.running.add(job);
    void job.then(() => this.running.delete(job));
  }

  private async summarize(conversationId: string, before: Message[]): Promise<void> {
    const after = await this.chatMemory.get(conversationId);
    this.addPending(conversationId, droppedFrom(before, after));
    const dropped = this.pending.get(conversationId);
    if (dropped === undefined || dropped.length === 0) return;
    const previousSummary = summaryOf(after);
    const text = await this.callSummarizer({
      conversationId,
      previousSummary,
      dropped,
      messages: this.prompt(previousSummary, dropped),
    });
    this.pending.delete(conversationId);
    const [system] = splitSystem(after);
    await this.chatMemory.add(conversationId, [
      ...system.filter((m) => !isSummaryMessage(m)),
      summaryMessage(text),
    ]);
    // A bigger summary can push another turn out of a token window: summarize it next time.
    this.addPending(conversationId, droppedFrom(after, await this.chatMemory.get(conversationId)));
  }

  private addPending(conversationId: string, dropped: Message[]): void {
    if (dropped.length === 0) return;
    const all = [...(this.pending.get(conversationId) ?? []), ...dropped];
    this.pending.set(conversationId, all.slice(-this.maxPending));
  }

  private prompt(previousSummary: string | undefined, dropped: readonly Message[]): Message[] {
    const previous =
      previousSummary === undefined ? '' : `Previous summary:\n${previousSummary}\n\n`;
    return [
      { role: 'system', content: this.instructions },
      { role: 'user', content: `${previous}New messages:\n${transcriptText(dropped)}` },
    ];
  }

  private callSummarizer(request: SummaryRequest): Promise<string> {
    const summarizer = this.summarizer;
    if (typeof summarizer !== 'function') {
      const call = ChatRequest.create({ messages: request.messages });
      return firstValueFrom(
        summarizer.stream(call).pipe(
          aggregate(),
          map((r) => r.text),
        ),
      );
    }
    const result = summarizer(request);
    return isObservable(result) ? firstValueFrom(result) : Promise.resolve(result);
  }
}

/** The call's system messages (else the stored ones), the summary, then the conversation. */
function withSummary(request: ChatRequest, history: Message[]): ChatRequest {
  if (history.length === 0) return request;
  const [storedSystem, stored] = splitSystem(history);
  const summary = storedSystem.filter(isSummaryMessage);
  const storedOwn = storedSystem.filter((m) => !isSummaryMessage(m));
  const [system, messages] = splitSystem(request.messages);
  return request.withMessages([
    ...(system.length > 0 ? system : storedOwn),
    ...summary,
    ...pairToolMessages([...stored, ...messages]),
  ]);
}

function isChatModel(value: unknown): value is ChatModel {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { stream?: unknown }).stream === 'function'
  );
}
