import { EMPTY, type Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import {
  ChatRequest,
  createAdvisorChain,
  QuestionAnswerAdvisor,
  type ChatChunk,
  type SearchResult,
  type VectorStore,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

const t = (text: string): ChatChunk => ({ type: 'text-delta', text });
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };
const ask = (content: string) => ChatRequest.create({ messages: [{ role: 'user', content }] });
const FOUND: SearchResult = {
  documents: [{ id: 'd1', text: 'Refunds take 5 days.', metadata: {}, score: 0.9 }],
  usage: { inputTokens: 3, outputTokens: undefined, totalTokens: 3 },
};

/** A store whose searches are the given cold Observables, in order. */
function storeOf(...searches: Observable<SearchResult>[]): VectorStore {
  let call = 0;
  return {
    name: 'marble',
    add: () => EMPTY,
    delete: () => EMPTY,
    similaritySearch: () => searches[call++] ?? EMPTY,
  };
}

describe('QuestionAnswerAdvisor (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('retrieves before the model call: the model is subscribed only once the result arrives', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const search$ = cold('---r|', { r: FOUND });
      const model$ = cold('-a-f|', { a: t('5 days'), f: FINISH });
      const chain = createAdvisorChain({
        advisors: [new QuestionAnswerAdvisor({ vectorStore: storeOf(search$) })],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('refunds?'))).toBe('----a-f|', { a: t('5 days'), f: FINISH });
      expectSubscriptions(search$.subscriptions).toBe('^---!');
      expectSubscriptions(model$.subscriptions).toBe('---^---!');
    });
  });

  it('cancels the retrieval on unsubscribe, and never calls the model', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const search$ = cold('-----r|', { r: FOUND });
      const model$ = cold('-a|', { a: t('x') });
      const chain = createAdvisorChain({
        advisors: [new QuestionAnswerAdvisor({ vectorStore: storeOf(search$) })],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('refunds?')), '^-!').toBe('---');
      expectSubscriptions(search$.subscriptions).toBe('^-!');
      expectSubscriptions(model$.subscriptions).toBe([]);
    });
  });

  it('fails with the retrieval error, without calling the model', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const search$ = cold<SearchResult>('--#', undefined, new Error('store down'));
      const model$ = cold('-a|', { a: t('x') });
      const chain = createAdvisorChain({
        advisors: [new QuestionAnswerAdvisor({ vectorStore: storeOf(search$) })],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('refunds?'))).toBe('--#', undefined, new Error('store down'));
      expectSubscriptions(search$.subscriptions).toBe('^-!');
      expectSubscriptions(model$.subscriptions).toBe([]);
    });
  });

  it('passes a model error and an empty model stream through', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const search1$ = cold('r|', { r: FOUND });
      const search2$ = cold('r|', { r: FOUND });
      const failing$ = cold('-a#', { a: t('x') }, new Error('model'));
      const empty$ = cold<ChatChunk>('--|');
      const chain = createAdvisorChain({
        advisors: [new QuestionAnswerAdvisor({ vectorStore: storeOf(search1$, search2$) })],
        model: MockChatModel.fromStreams([failing$, empty$]),
      });
      expectObservable(chain.next(ask('a?'))).toBe('-a#', { a: t('x') }, new Error('model'));
      expectObservable(chain.next(ask('b?'))).toBe('--|');
      expectSubscriptions(failing$.subscriptions).toBe('^-!');
      expectSubscriptions(empty$.subscriptions).toBe('^-!');
    });
  });
});
