// QuestionAnswerAdvisor with emitSources: the sources go out on the frame the search result
// arrives, before the model is subscribed; an unsubscribe during retrieval sends none.
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
  documents: [
    { id: 'd1', text: 'Refunds take 5 days.', metadata: { title: 'Refunds' }, score: 0.9 },
    { id: 'd2', text: 'Shipping.', metadata: { url: 'https://a.example/s' }, score: 0.5 },
  ],
  usage: { inputTokens: 3, outputTokens: undefined, totalTokens: 3 },
};
const S1: ChatChunk = {
  type: 'source',
  sourceType: 'document',
  id: 'd1',
  mediaType: 'text/plain',
  title: 'Refunds',
};
const S2: ChatChunk = { type: 'source', sourceType: 'url', id: 'd2', url: 'https://a.example/s' };

function storeOf(search$: Observable<SearchResult>): VectorStore {
  return { name: 'marble', add: () => EMPTY, delete: () => EMPTY, similaritySearch: () => search$ };
}

describe('QuestionAnswerAdvisor emitSources (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('sends the sources when the search result arrives, then the answer from the model', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const search$ = cold('---r|', { r: FOUND });
      // The model starts 4 frames late, so its first chunk comes after the (xy) group's frames.
      const model$ = cold('----a-f|', { a: t('5 days'), f: FINISH });
      const chain = createAdvisorChain({
        advisors: [new QuestionAnswerAdvisor({ vectorStore: storeOf(search$), emitSources: true })],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('refunds?'))).toBe('---(xy)a-f|', {
        x: S1,
        y: S2,
        a: t('5 days'),
        f: FINISH,
      });
      expectSubscriptions(search$.subscriptions).toBe('^---!');
      expectSubscriptions(model$.subscriptions).toBe('---^------!');
    });
  });

  it('sends no source when unsubscribed during retrieval', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const search$ = cold('-----r|', { r: FOUND });
      const model$ = cold('-a|', { a: t('x') });
      const chain = createAdvisorChain({
        advisors: [new QuestionAnswerAdvisor({ vectorStore: storeOf(search$), emitSources: true })],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('refunds?')), '^-!').toBe('---');
      expectSubscriptions(search$.subscriptions).toBe('^-!');
      expectSubscriptions(model$.subscriptions).toBe([]);
    });
  });
});
