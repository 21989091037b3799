import {
  concat,
  concatMap,
  defaultIfEmpty,
  defer,
  from,
  map,
  mergeMap,
  take,
  toArray,
  type Observable,
} from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { ContextKeys } from '../advisor-api/context-keys.js';
import { Order } from '../advisor-api/order.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { Message } from '../core/message.js';
import { UsageAccumulator } from '../core/usage-accumulator.js';
import { validateOptions, withDefaults } from '../core/validate-options.js';
import { EmptyQuestionError } from '../errors/empty-question-error.js';
import type { ScoredDocument } from '../vector/document.js';
import { ConcatenationDocumentJoiner } from './retrieval/concatenation-document-joiner.js';
import { ContextualQueryAugmenter } from './augmentation/contextual-query-augmenter.js';
import type { DocumentJoiner, RetrievedDocuments } from './retrieval/document-joiner.js';
import type { Augmentation, QueryAugmenter } from './augmentation/query-augmenter.js';
import type { Query } from './query.js';
import type { RagRetrieval } from './rag-retrieval.js';
import type { RagStageContext } from './rag-stage-context.js';
import {
  RAG_DEFAULTS,
  RAG_RULES,
  type RetrievalAugmentationAdvisorOptions,
} from './retrieval-augmentation-advisor-options.js';
import { sourceChunks } from './source-chunks.js';

export type { RetrievalAugmentationAdvisorOptions } from './retrieval-augmentation-advisor-options.js';
export type { RagRetrieval } from './rag-retrieval.js';

/**
 * Modular retrieval-augmented generation (Spring AI's `RetrievalAugmentationAdvisor`),
 * each stage a small replaceable part that returns an Observable:
 *
 * ```
 * question ─► queryTransformers (in order) ─► queryExpander ─► documentRetrievers
 *   (every query × every retriever, maxConcurrency at once) ─► documentJoiner
 *   ─► documentPostProcessors (in order) ─► record + onRetrieved ─► queryAugmenter
 *   ─► model (or the augmenter's own answer)
 * ```
 *
 * Everything before the model call runs inside the call's subscription: unsubscribing
 * during retrieval cancels the stage in progress (its model call, its embedding request)
 * and the model is never called. The stages' chat model usage goes out as one `usage`
 * chunk before the answer, so it counts in the call's usage; query embedding usage is
 * recorded apart. The record (a {@link RagRetrieval}) is stored in `request.context` under
 * `ContextKeys.RETRIEVED_DOCUMENTS`, the key `QuestionAnswerAdvisor` uses.
 *
 * ```
 * stages:  ---r|              (retrieval done, augmented prompt ready)
 * model:      -a-f|          (subscribed when r arrives)
 * result:  ---ua-f|          (u: the stages' usage)
 * ```
 *
 * @example
 * ```ts partial
 * import { ChatClient } from 'rx-advisors';
 * import { CompressionQueryTransformer, MultiQueryExpander, RetrievalAugmentationAdvisor, VectorStoreDocumentRetriever } from 'rx-advisors/rag';
 *
 * const helper = ChatClient.create(smallModel);
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(
 *     new RetrievalAugmentationAdvisor({
 *       queryTransformers: [new CompressionQueryTransformer({ chatClient: helper })],
 *       queryExpander: new MultiQueryExpander({ chatClient: helper }),
 *       documentRetrievers: [new VectorStoreDocumentRetriever({ vectorStore: store })],
 *     }),
 *   )
 *   .build();
 * ```
 */
export class RetrievalAugmentationAdvisor implements Advisor {
  /** @deprecated Use `Order.QUESTION_ANSWER`, the one name of this default; removed in the next release. */
  static readonly DEFAULT_ORDER = Order.QUESTION_ANSWER;
  readonly name: string;
  readonly order: number;
  private readonly settings: typeof RAG_DEFAULTS & RetrievalAugmentationAdvisorOptions;
  private readonly joiner: DocumentJoiner;
  private readonly augmenter: QueryAugmenter;

  /** @param options The stages, the limits, the record callback, sources, order and name. */
  constructor(options: RetrievalAugmentationAdvisorOptions) {
    this.settings = withDefaults(
      RAG_DEFAULTS,
      validateOptions(options ?? ({} as RetrievalAugmentationAdvisorOptions), RAG_RULES),
    );
    this.name = this.settings.name;
    this.order = this.settings.order;
    this.joiner = this.settings.documentJoiner ?? new ConcatenationDocumentJoiner();
    this.augmenter = this.settings.queryAugmenter ?? new ContextualQueryAugmenter();
  }

  /**
   * What the advisor retrieved in a call (its `request.context`), for advisors after it.
   * @param context The call's context.
   * @returns The record, or `undefined` before retrieval ran (or when another retrieval
   *   advisor wrote a plain `Retrieval`).
   */
  static retrieval(context: ReadonlyMap<string, unknown>): RagRetrieval | undefined {
    const value = context.get(ContextKeys.RETRIEVED_DOCUMENTS) as Partial<RagRetrieval> | undefined;
    return value?.queries === undefined ? undefined : (value as RagRetrieval);
  }

  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      const question = request.lastUserText;
      if (question === undefined || question.trim() === '') {
        throw new EmptyQuestionError({ advisorName: this.name });
      }
      // Per subscription: a re-subscribed call counts its stages afresh.
      const stageUsage = new UsageAccumulator();
      const embeddingUsage = new UsageAccumulator();
      const stage: RagStageContext = {
        addUsage: (usage) => void stageUsage.add(usage),
        addEmbeddingUsage: (usage) => void embeddingUsage.add(usage),
      };
      const original: Query = {
        text: question,
        history: historyBefore(request.messages),
        context: request.context,
      };
      return this.transform(original, stage).pipe(
        concatMap((query) =>
          firstOr(this.expand(query, stage), [query]).pipe(
            concatMap((queries) =>
              this.retrieveAll(queries, stage).pipe(
                concatMap((results) => firstOr(this.joiner.join(results, stage), [])),
                concatMap((joined) => this.postProcess(query, joined, stage)),
                map((documents) => ({ queries, documents })),
              ),
            ),
          ),
        ),
        concatMap(({ queries, documents }) => {
          const retrieval: RagRetrieval = {
            question,
            documents,
            usage: embeddingUsage.total,
            queries: queries.map((q) => q.text),
            stageUsage: stageUsage.total,
          };
          request.context.set(ContextKeys.RETRIEVED_DOCUMENTS, retrieval);
          this.settings.onRetrieved?.(retrieval);
          const fallback: Augmentation = { prompt: question };
          return firstOr(this.augmenter.augment(original, documents, stage), fallback).pipe(
            concatMap((augmentation) =>
              this.respond(request, chain, augmentation, documents, stageUsage),
            ),
          );
        }),
      );
    });
  }

  private transform(query: Query, stage: RagStageContext): Observable<Query> {
    return this.settings.queryTransformers.reduce<Observable<Query>>(
      (query$, transformer) =>
        query$.pipe(concatMap((q) => firstOr(transformer.transform(q, stage), q))),
      from([query]),
    );
  }

  private postProcess(
    query: Query,
    joined: readonly ScoredDocument[],
    stage: RagStageContext,
  ): Observable<readonly ScoredDocument[]> {
    return this.settings.documentPostProcessors.reduce<Observable<readonly ScoredDocument[]>>(
      (documents$, processor) =>
        documents$.pipe(
          concatMap((documents) => firstOr(processor.process(query, documents, stage), documents)),
        ),
      from([joined]),
    );
  }

  private expand(query: Query, stage: RagStageContext): Observable<readonly Query[]> {
    const expander = this.settings.queryExpander;
    if (expander === undefined) return from([[query]]);
    return expander
      .expand(query, stage)
      .pipe(
        map((queries) =>
          queries.length === 0 ? [query] : queries.slice(0, this.settings.maxQueries),
        ),
      );
  }

  private retrieveAll(
    queries: readonly Query[],
    stage: RagStageContext,
  ): Observable<RetrievedDocuments[]> {
    const jobs = queries.flatMap((query) =>
      this.settings.documentRetrievers.map((retriever, index) => ({ query, retriever, index })),
    );
    return from(jobs).pipe(
      mergeMap(
        ({ query, retriever, index }, position) =>
          firstOr(retriever.retrieve(query, stage), []).pipe(
            map((documents) => ({ position, result: { query, retriever: index, documents } })),
          ),
        this.settings.maxConcurrency,
      ),
      toArray(),
      // Results arrive as retrievals finish; the joiner gets them in query, retriever order.
      map((done) => done.sort((a, b) => a.position - b.position).map((d) => d.result)),
    );
  }

  private respond(
    request: ChatRequest,
    chain: AdvisorChain,
    augmentation: Augmentation,
    documents: readonly ScoredDocument[],
    stageUsage: UsageAccumulator,
  ): Observable<ChatChunk> {
    const first: ChatChunk[] = [];
    if (stageUsage.size > 0) first.push({ type: 'usage', usage: stageUsage.total });
    first.push(...sourceChunks(documents, this.settings.emitSources));
    if ('answer' in augmentation) {
      return from<ChatChunk[]>([
        ...first,
        { type: 'text-delta', text: augmentation.answer },
        { type: 'finish', reason: 'stop' },
      ]);
    }
    const answer$ = chain.next(
      request.withMessages(withLastUser(request.messages, augmentation.prompt)),
    );
    return first.length === 0 ? answer$ : concat(from(first), answer$);
  }
}

/** The first value of a stage, or `fallback` when it completes without one. */
function firstOr<T>(stage$: Observable<T>, fallback: T): Observable<T> {
  return stage$.pipe(take(1), defaultIfEmpty(fallback));
}

/** The messages before the last user message, system messages left out. */
function historyBefore(messages: readonly Message[]): Message[] {
  const last = messages.map((m) => m.role).lastIndexOf('user');
  return messages.slice(0, Math.max(0, last)).filter((m) => m.role !== 'system');
}

function withLastUser(messages: readonly Message[], content: string): Message[] {
  const last = messages.map((m) => m.role).lastIndexOf('user');
  // The message's other parts (images, files) stay; only its text is replaced.
  return messages.map((m, i) => (i === last ? { ...m, content } : m));
}
