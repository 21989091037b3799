import {
  asyncScheduler,
  concatMap,
  config,
  defer,
  finalize,
  lastValueFrom,
  map,
  of,
  tap,
  type Observable,
} from 'rxjs';
import type { Advisor, AdvisorChain } from '../../advisor-api/advisor.js';
import { Order } from '../../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES } from '../../advisor-api/validate-advisor-identity.js';
import type { ChatChunk } from '../../core/chat-chunk.js';
import type { ChatRequest } from '../../core/chat-request.js';
import type { Message } from '../../core/message.js';
import { ResponseAssembler } from '../../core/response-assembler.js';
import { ToolLoopTranscript } from '../../core/tool-loop-transcript.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import { conversationIdOf } from '../conversation-id.js';
import { splitSystem, turnInputs } from '../conversation-messages.js';
import type { Document, ScoredDocument } from '../../vector/document.js';
import type { VectorStore } from '../../vector/vector-store.js';
import { fillTemplate, hasSlots } from '../../core/fill-template.js';
import { memoryDocuments, type MemoryTurn } from './memory-documents.js';

/**
 * Options of {@link VectorStoreChatMemoryAdvisor}.
 * @example
 * ```ts partial
 * import type { VectorStoreChatMemoryAdvisorOptions } from 'rx-advisors/rag';
 * const options: VectorStoreChatMemoryAdvisorOptions = { vectorStore: memoryStore, topK: 5, similarityThreshold: 0.3 };
 * ```
 */
export interface VectorStoreChatMemoryAdvisorOptions {
  /** Where past messages are stored and searched (one store may hold every conversation). */
  vectorStore: VectorStore;
  /** The most past messages put into the prompt; default 10. */
  topK?: number;
  /** Keep only messages at least this similar to the question (cosine); default: all. */
  similarityThreshold?: number;
  /**
   * The system text sent when something was recalled: `{instructions}` is replaced by the
   * call's system text, `{memory}` by the recalled messages (`role: text` lines, oldest
   * first). Both must appear. Default: {@link VectorStoreChatMemoryAdvisor.DEFAULT_TEMPLATE}.
   */
  systemTemplate?: string;
  /** The conversation of calls without a `conversationId` advisor param; without one they fail. */
  defaultConversationId?: string;
  /**
   * Also store the tool loop's rounds: each assistant tool-call message with its results as
   * ONE document, so a result is never recalled without its call. Default `false`: the
   * user's messages and the final answer only (as the window memory does).
   */
  saveToolMessages?: boolean;
  /** Called when a turn's messages were stored (in the background, after the call). */
  onStored?: (turn: { conversationId: string; documents: number }) => void;
  /** Called when storing failed; default: RxJS's `config.onUnhandledError`. */
  onStoreError?: (error: unknown, turn: { conversationId: string }) => void;
  /** Default `Order.CHAT_MEMORY` (outside the tool loop); at most `Order.TOOL_CALLING`. */
  order?: number;
  /** Default `'VectorStoreChatMemoryAdvisor'`. */
  name?: string;
}

const VECTOR_MEMORY_DEFAULTS = {
  topK: 10,
  systemTemplate:
    '{instructions}\n\nEarlier messages of this conversation that may matter now, oldest ' +
    'first. Use them to answer consistently with what was said before.\n' +
    '<long-term-memory>\n{memory}\n</long-term-memory>',
  saveToolMessages: false,
  order: Order.CHAT_MEMORY,
  name: 'VectorStoreChatMemoryAdvisor',
} as const;

const VECTOR_MEMORY_RULES: OptionRules<VectorStoreChatMemoryAdvisorOptions> = {
  ...ADVISOR_IDENTITY_RULES,
  vectorStore: Rules.required(
    Rules.custom(
      'a VectorStore (an object with add(documents) and similaritySearch(request))',
      (value) =>
        typeof (value as { similaritySearch?: unknown } | null)?.similaritySearch === 'function' &&
        typeof (value as { add?: unknown }).add === 'function',
    ),
  ),
  topK: Rules.integer(1, 1000),
  similarityThreshold: Rules.number(-1, 1),
  systemTemplate: Rules.custom(
    'a string containing both {instructions} and {memory}',
    hasSlots('instructions', 'memory'),
  ),
  defaultConversationId: Rules.nonEmptyString,
  saveToolMessages: Rules.boolean,
  onStored: Rules.func,
  onStoreError: Rules.func,
  order: Rules.custom(
    `an integer of at most Order.TOOL_CALLING (${Order.TOOL_CALLING}): recalled memory goes into the system text once per call`,
    (value) => Number.isInteger(value) && (value as number) <= Order.TOOL_CALLING,
  ),
};

/**
 * Long-term chat memory by similarity (Spring AI's `VectorStoreChatMemoryAdvisor`): each
 * turn's messages are embedded and stored in a vector store with the conversation id as
 * metadata (`conversationId`); before each call the past messages most similar to the
 * question, from this conversation only (a metadata filter, never text spliced into one),
 * are put into the system text. The search runs before the model call and is cancelled
 * with it. The turn is stored after the answer completes, in the background: the caller
 * gets the answer first; `flush()` waits for writes in flight. A failed or unsubscribed
 * call stores the user's messages only, as the window memory does.
 *
 * The conversation id comes from `advisorParams({ conversationId })`, the key the other
 * memory advisors read. Use it next to a `MessageChatMemoryAdvisor` (recent turns, in
 * order) for long conversations.
 *
 * @example
 * ```ts partial
 * import { ChatClient } from 'rx-advisors';
 * import { InMemoryVectorStore, VectorStoreChatMemoryAdvisor } from 'rx-advisors/rag';
 *
 * const memory = new VectorStoreChatMemoryAdvisor({ vectorStore: new InMemoryVectorStore({ embeddingModel }) });
 * const client = ChatClient.builder(model).defaultAdvisors(memory).build();
 * client.prompt('My dog is called Rex.').advisorParams({ conversationId: 'u1' }).call().content();
 * ```
 */
export class VectorStoreChatMemoryAdvisor implements Advisor {
  /** The default `systemTemplate`. */
  static readonly DEFAULT_TEMPLATE = VECTOR_MEMORY_DEFAULTS.systemTemplate;
  /** The metadata key holding the conversation id of a stored message. */
  static readonly CONVERSATION_ID_METADATA = 'conversationId';
  readonly name: string;
  readonly order: number;
  private readonly settings: typeof VECTOR_MEMORY_DEFAULTS & VectorStoreChatMemoryAdvisorOptions;
  private readonly writes = new Set<Promise<void>>();
  private lastStamp = 0;

  /** @param options The store, the search, the template, tool messages, callbacks, order and name. */
  constructor(options: VectorStoreChatMemoryAdvisorOptions) {
    this.settings = withDefaults(
      VECTOR_MEMORY_DEFAULTS,
      validateOptions(options ?? ({} as VectorStoreChatMemoryAdvisorOptions), VECTOR_MEMORY_RULES),
    );
    this.name = this.settings.name;
    this.order = this.settings.order;
  }

  /**
   * Waits for the background writes started so far (for tests and graceful shutdown).
   * @returns A promise that resolves when they are done, failed ones included.
   */
  async flush(): Promise<void> {
    await Promise.all([...this.writes]);
  }

  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      const conversationId = conversationIdOf(
        request,
        this.name,
        this.settings.defaultConversationId,
      );
      const question = request.lastUserText;
      const transcript = ToolLoopTranscript.of(request.context);
      const loopMark = transcript.mark();
      const assembler = new ResponseAssembler();
      let completed = false;
      const recall$: Observable<readonly ScoredDocument[]> =
        question === undefined || question.trim() === ''
          ? of([])
          : this.settings.vectorStore
              .similaritySearch({
                query: question,
                topK: this.settings.topK,
                ...(this.settings.similarityThreshold === undefined
                  ? {}
                  : { similarityThreshold: this.settings.similarityThreshold }),
                filter: {
                  type: 'compare',
                  key: VectorStoreChatMemoryAdvisor.CONVERSATION_ID_METADATA,
                  operator: '==',
                  value: conversationId,
                },
              })
              .pipe(map(({ documents }) => documents));
      return recall$.pipe(
        concatMap((recalled) => chain.next(this.withMemory(request, recalled))),
        tap({
          next: (chunk) => void assembler.add(chunk),
          complete: () => (completed = true),
        }),
        // After the caller has the answer (or gave up): the turn is written in the background.
        finalize(() => {
          const turn: MemoryTurn = {
            conversationId,
            inputs: turnInputs(request.messages),
            response: completed ? assembler.build() : undefined,
            loopMessages: transcript.since(loopMark),
            saveToolMessages: this.settings.saveToolMessages,
            at: this.nextStamp(),
          };
          this.store(turn);
        }),
      );
    });
  }

  private withMemory(request: ChatRequest, recalled: readonly Document[]): ChatRequest {
    if (recalled.length === 0) return request;
    const lines = [...recalled]
      .sort((a, b) => stamp(a, 'at') - stamp(b, 'at') || stamp(a, 'seq') - stamp(b, 'seq'))
      .map((d) => `${String(d.metadata['role'] ?? 'user')}: ${d.text}`);
    const [system, messages] = splitSystem(request.messages);
    const text = fillTemplate(this.settings.systemTemplate, {
      instructions: system.map((m) => m.content).join('\n\n'),
      memory: lines.join('\n'),
    }).trim();
    const withSystem: Message[] = [{ role: 'system', content: text }, ...messages];
    return request.withMessages(withSystem);
  }

  /**
   * The turn's time (`at`), made strictly increasing within this advisor so that turns of
   * one millisecond keep their order when recalled (the clock alone ties them).
   */
  private nextStamp(): number {
    this.lastStamp = Math.max(asyncScheduler.now(), this.lastStamp + 1);
    return this.lastStamp;
  }

  private store(turn: MemoryTurn): void {
    const documents = memoryDocuments(turn);
    if (documents.length === 0) return;
    const { conversationId } = turn;
    const { vectorStore, onStored, onStoreError } = this.settings;
    // Detached on purpose: the call is over, and its unsubscribe must not cancel the write.
    const write = lastValueFrom(vectorStore.add(documents)).then(
      (count) => onStored?.({ conversationId, documents: count }),
      (error: unknown) =>
        onStoreError === undefined
          ? config.onUnhandledError?.(error)
          : onStoreError(error, { conversationId }),
    );
    const tracked = write.catch(() => undefined).finally(() => this.writes.delete(tracked));
    this.writes.add(tracked);
  }
}

/** A stored message's position: its turn's time (`at`), then its place in the turn (`seq`). */
function stamp(document: Document, key: 'at' | 'seq'): number {
  const value = document.metadata[key];
  return typeof value === 'number' ? value : 0;
}
