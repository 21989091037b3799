import { EMPTY, of, type Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import {
  ChatRequest,
  createAdvisorChain,
  VectorStoreChatMemoryAdvisor,
  type ChatChunk,
  type SearchResult,
  type VectorStore,
} from '../../../lib/index';
import { MockChatModel } from '../../../lib/testing/index';
import { createTestScheduler } from '../../support/test-scheduler';

const t = (text: string): ChatChunk => ({ type: 'text-delta', text });
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };
const ask = (content: string) =>
  ChatRequest.create({
    messages: [{ role: 'user', content }],
    context: new Map([['conversationId', 'c1']]),
  });
const RECALLED: SearchResult = {
  documents: [
    {
      id: 'm1',
      text: 'My dog is Rex.',
      metadata: { conversationId: 'c1', role: 'user', at: 1, seq: 0 },
      score: 0.8,
    },
  ],
  usage: { inputTokens: 2, outputTokens: undefined, totalTokens: 2 },
};

/** A store whose searches are the given cold Observables; adds are logged and complete. */
function storeOf(...searches: Observable<SearchResult>[]): VectorStore & { adds: number } {
  let call = 0;
  return {
    name: 'marble',
    adds: 0,
    add(documents) {
      this.adds += 1;
      return of(documents.length);
    },
    delete: () => EMPTY,
    similaritySearch: () => searches[call++] ?? EMPTY,
  };
}

describe('VectorStoreChatMemoryAdvisor (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('recalls before the model call: the model is subscribed once the search is done', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const search$ = cold('--r|', { r: RECALLED });
      const model$ = cold('-a-f|', { a: t('Rex!'), f: FINISH });
      const store = storeOf(search$);
      const chain = createAdvisorChain({
        advisors: [new VectorStoreChatMemoryAdvisor({ vectorStore: store })],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('What is my dog called?'))).toBe('---a-f|', {
        a: t('Rex!'),
        f: FINISH,
      });
      expectSubscriptions(search$.subscriptions).toBe('^--!');
      expectSubscriptions(model$.subscriptions).toBe('--^---!');
      testScheduler.flush();
      expect(store.adds).toBe(1); // the turn, written after the answer completed
    });
  });

  it('cancels the search on unsubscribe, and never calls the model', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const search$ = cold('-----r|', { r: RECALLED });
      const model$ = cold('-a|', { a: t('x') });
      const store = storeOf(search$);
      const chain = createAdvisorChain({
        advisors: [new VectorStoreChatMemoryAdvisor({ vectorStore: store })],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('dog?')), '^-!').toBe('---');
      testScheduler.flush();
      expect(store.adds).toBe(1); // the user's message, kept though the call was abandoned
      expectSubscriptions(search$.subscriptions).toBe('^-!');
      expectSubscriptions(model$.subscriptions).toBe([]);
    });
  });

  it('passes the model error through, after recalling', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const search$ = cold('r|', { r: RECALLED });
      const model$ = cold('-a#', { a: t('x') }, new Error('model'));
      const chain = createAdvisorChain({
        advisors: [new VectorStoreChatMemoryAdvisor({ vectorStore: storeOf(search$) })],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('dog?'))).toBe('-a#', { a: t('x') }, new Error('model'));
    });
  });
});
