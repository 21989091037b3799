import type { Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import {
  ChatClient,
  ChatClientDocumentReranker,
  ChatRequest,
  createAdvisorChain,
  RetrievalAugmentationAdvisor,
  type ChatChunk,
  type DocumentJoiner,
  type DocumentPostProcessor,
  type DocumentRetriever,
  type ScoredDocument,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

const t = (text: string): ChatChunk => ({ type: 'text-delta', text });
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };
const ask = (content: string) => ChatRequest.create({ messages: [{ role: 'user', content }] });
const doc = (id: string): ScoredDocument => ({ id, text: `Text ${id}.`, metadata: {}, score: 0.5 });
const A = doc('a');
const B = doc('b');

const retrieverOf = (retrieval$: Observable<readonly ScoredDocument[]>): DocumentRetriever => ({
  retrieve: () => retrieval$,
});
const lastUser = (model: MockChatModel) =>
  model.requests[0]?.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';

describe('RetrievalAugmentationAdvisor documentPostProcessors (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('post-processes after retrieval and joining, and calls the model only when it is done', () => {
    const seen: string[][] = [];
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const retrieval$ = cold('--r|', { r: [A, B] });
      const join$ = cold('-j|', { j: [A, B] });
      const process$ = cold('--p|', { p: [B] });
      const model$ = cold('-a-f|', { a: t('ok'), f: FINISH });
      const joiner: DocumentJoiner = { join: () => join$ };
      const processor: DocumentPostProcessor = {
        process: (_query, documents) => {
          seen.push(documents.map((d) => d.id));
          return process$;
        },
      };
      const model = MockChatModel.fromStreams([model$]);
      const chain = createAdvisorChain({
        advisors: [
          new RetrievalAugmentationAdvisor({
            documentRetrievers: [retrieverOf(retrieval$)],
            documentJoiner: joiner,
            documentPostProcessors: [processor],
          }),
        ],
        model,
      });
      // retrieval:  --r|
      // joiner:       -j|       (subscribed when the retrieval is in)
      // processor:     --p|     (subscribed when the joiner answered)
      // model:           -a-f|  (subscribed when post-processing is done)
      expectObservable(chain.next(ask('q'))).toBe('------a-f|', { a: t('ok'), f: FINISH });
      expectSubscriptions(retrieval$.subscriptions).toBe('^-!');
      expectSubscriptions(join$.subscriptions).toBe('--^!');
      expectSubscriptions(process$.subscriptions).toBe('---^-!');
      expectSubscriptions(model$.subscriptions).toBe('-----^---!');
    });
    expect(seen).toEqual([['a', 'b']]);
  });

  it("runs the re-ranker's model call between retrieval and the answer; its usage goes out first", () => {
    const usage = { inputTokens: 4, outputTokens: 2, totalTokens: 6 };
    let answering = MockChatModel.fromStreams([]);
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const retrieval$ = cold('-r|', { r: [A, B] });
      const rerank$ = cold<ChatChunk>('--a(uf|)', {
        a: t('[2, 1]'),
        u: { type: 'usage', usage },
        f: FINISH,
      });
      const model$ = cold('-a-f|', { a: t('ok'), f: FINISH });
      answering = MockChatModel.fromStreams([model$]);
      const chain = createAdvisorChain({
        advisors: [
          new RetrievalAugmentationAdvisor({
            documentRetrievers: [retrieverOf(retrieval$)],
            documentPostProcessors: [
              new ChatClientDocumentReranker({
                chatClient: ChatClient.create(MockChatModel.fromStreams([rerank$])),
              }),
            ],
          }),
        ],
        model: answering,
      });
      expectObservable(chain.next(ask('q'))).toBe('----ua-f|', {
        u: { type: 'usage', usage },
        a: t('ok'),
        f: FINISH,
      });
      expectSubscriptions(retrieval$.subscriptions).toBe('^!');
      expectSubscriptions(rerank$.subscriptions).toBe('-^--!');
      expectSubscriptions(model$.subscriptions).toBe('----^---!');
    });
    // The answering model got the documents in the re-ranker's order.
    expect(lastUser(answering)).toContain('Text b.\nText a.');
  });

  it("cancels the re-ranker's model call on unsubscribe, and never calls the answering model", () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const retrieval$ = cold('r|', { r: [A, B] });
      const rerank$ = cold<ChatChunk>('----a(f|)', { a: t('[2, 1]'), f: FINISH });
      const model$ = cold('-a|', { a: t('x') });
      const chain = createAdvisorChain({
        advisors: [
          new RetrievalAugmentationAdvisor({
            documentRetrievers: [retrieverOf(retrieval$)],
            documentPostProcessors: [
              new ChatClientDocumentReranker({
                chatClient: ChatClient.create(MockChatModel.fromStreams([rerank$])),
              }),
            ],
          }),
        ],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('q')), '^--!').toBe('----');
      expectSubscriptions(retrieval$.subscriptions).toBe('(^!)');
      expectSubscriptions(rerank$.subscriptions).toBe('^--!');
      expectSubscriptions(model$.subscriptions).toBe([]);
    });
  });

  it('fails with the processor error, without calling the model', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const retrieval$ = cold('-r|', { r: [A] });
      const process$ = cold<readonly ScoredDocument[]>('--#', undefined, new Error('rerank down'));
      const model$ = cold('-a|', { a: t('x') });
      const chain = createAdvisorChain({
        advisors: [
          new RetrievalAugmentationAdvisor({
            documentRetrievers: [retrieverOf(retrieval$)],
            documentPostProcessors: [{ process: () => process$ }],
          }),
        ],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('q'))).toBe('---#', undefined, new Error('rerank down'));
      expectSubscriptions(process$.subscriptions).toBe('-^-!');
      expectSubscriptions(model$.subscriptions).toBe([]);
    });
  });
});
