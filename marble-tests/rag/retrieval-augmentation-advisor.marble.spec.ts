import type { Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import {
  ChatClient,
  ChatRequest,
  createAdvisorChain,
  RetrievalAugmentationAdvisor,
  RewriteQueryTransformer,
  type ChatChunk,
  type DocumentRetriever,
  type ScoredDocument,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

const t = (text: string): ChatChunk => ({ type: 'text-delta', text });
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };
const ask = (content: string) => ChatRequest.create({ messages: [{ role: 'user', content }] });
const DOC: ScoredDocument = { id: 'd1', text: 'Refunds take 5 days.', metadata: {}, score: 0.9 };

/** A retriever whose retrievals are the given cold Observables, in order. */
function retrieverOf(...retrievals: Observable<readonly ScoredDocument[]>[]): DocumentRetriever {
  let call = 0;
  return { retrieve: () => retrievals[call++] };
}

describe('RetrievalAugmentationAdvisor (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('retrieves before the model call: the model is subscribed only once retrieval is done', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const retrieval$ = cold('---r|', { r: [DOC] });
      const model$ = cold('-a-f|', { a: t('5 days'), f: FINISH });
      const chain = createAdvisorChain({
        advisors: [
          new RetrievalAugmentationAdvisor({ documentRetrievers: [retrieverOf(retrieval$)] }),
        ],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('refunds?'))).toBe('----a-f|', { a: t('5 days'), f: FINISH });
      expectSubscriptions(retrieval$.subscriptions).toBe('^--!');
      expectSubscriptions(model$.subscriptions).toBe('---^---!');
    });
  });

  it('runs several retrievers at once and calls the model when the slowest is done', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const fast$ = cold('-r|', { r: [DOC] });
      const slow$ = cold('----r|', { r: [] });
      const model$ = cold('a|', { a: t('ok') });
      const chain = createAdvisorChain({
        advisors: [
          new RetrievalAugmentationAdvisor({
            documentRetrievers: [retrieverOf(fast$), retrieverOf(slow$)],
          }),
        ],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('q'))).toBe('----a|', { a: t('ok') });
      expectSubscriptions(fast$.subscriptions).toBe('^!');
      expectSubscriptions(slow$.subscriptions).toBe('^---!');
      expectSubscriptions(model$.subscriptions).toBe('----^!');
    });
  });

  it('cancels the retrieval on unsubscribe, and never calls the model', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const retrieval$ = cold('-----r|', { r: [DOC] });
      const model$ = cold('-a|', { a: t('x') });
      const chain = createAdvisorChain({
        advisors: [
          new RetrievalAugmentationAdvisor({ documentRetrievers: [retrieverOf(retrieval$)] }),
        ],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('refunds?')), '^-!').toBe('---');
      expectSubscriptions(retrieval$.subscriptions).toBe('^-!');
      expectSubscriptions(model$.subscriptions).toBe([]);
    });
  });

  it("cancels a stage's model call on unsubscribe: no retrieval, no answer", () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const rewrite$ = cold('---a-f|', { a: t('refund'), f: FINISH });
      const retrieval$ = cold('r|', { r: [DOC] });
      const model$ = cold('-a|', { a: t('x') });
      const chain = createAdvisorChain({
        advisors: [
          new RetrievalAugmentationAdvisor({
            queryTransformers: [
              new RewriteQueryTransformer({
                chatClient: ChatClient.create(MockChatModel.fromStreams([rewrite$])),
              }),
            ],
            documentRetrievers: [retrieverOf(retrieval$)],
          }),
        ],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('refunds?')), '^-!').toBe('---');
      expectSubscriptions(rewrite$.subscriptions).toBe('^-!');
      expectSubscriptions(retrieval$.subscriptions).toBe([]);
      expectSubscriptions(model$.subscriptions).toBe([]);
    });
  });

  it("sends the stages' usage first, then the answer as it streams", () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const usage = { inputTokens: 4, outputTokens: 2, totalTokens: 6 };
      const rewrite$ = cold<ChatChunk>('-a(uf|)', {
        a: t('refund'),
        u: { type: 'usage', usage },
        f: FINISH,
      });
      const retrieval$ = cold('--r|', { r: [DOC] });
      const model$ = cold('-a-b-f|', { a: t('Five'), b: t(' days'), f: FINISH });
      const chain = createAdvisorChain({
        advisors: [
          new RetrievalAugmentationAdvisor({
            queryTransformers: [
              new RewriteQueryTransformer({
                chatClient: ChatClient.create(MockChatModel.fromStreams([rewrite$])),
              }),
            ],
            documentRetrievers: [retrieverOf(retrieval$)],
          }),
        ],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('refunds?'))).toBe('----ua-b-f|', {
        u: { type: 'usage', usage },
        a: t('Five'),
        b: t(' days'),
        f: FINISH,
      });
    });
  });

  it('fails with the retrieval error, without calling the model', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const retrieval$ = cold<readonly ScoredDocument[]>('--#', undefined, new Error('store down'));
      const model$ = cold('-a|', { a: t('x') });
      const chain = createAdvisorChain({
        advisors: [
          new RetrievalAugmentationAdvisor({ documentRetrievers: [retrieverOf(retrieval$)] }),
        ],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('q'))).toBe('--#', undefined, new Error('store down'));
      expectSubscriptions(model$.subscriptions).toBe([]);
    });
  });
});
