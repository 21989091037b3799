import { type TestScheduler } from 'rxjs/testing';
import { ChatRequest, createAdvisorChain, SafeGuardAdvisor, type ChatChunk } from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

const t = (text: string): ChatChunk => ({ type: 'text-delta', text });
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };
const REFUSED: ChatChunk = { type: 'finish', reason: 'content-filter' };
const ask = (content: string) => ChatRequest.create({ messages: [{ role: 'user', content }] });
const guard = () => new SafeGuardAdvisor({ sensitiveWords: ['password'], failureResponse: 'No.' });

describe('SafeGuardAdvisor (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('passes a harmless call through frame by frame', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a--b-f|', { a: t('x'), b: t('y'), f: FINISH });
      const chain = createAdvisorChain({
        advisors: [guard()],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('hello'))).toBe('-a--b-f|', {
        a: t('x'),
        b: t('y'),
        f: FINISH,
      });
      expectSubscriptions(model$.subscriptions).toBe('^------!');
    });
  });

  it('refuses at once, without subscribing to the model', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a|', { a: t('x') });
      const chain = createAdvisorChain({
        advisors: [guard()],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('the pass\u200Bword?'))).toBe('(rf|)', {
        r: t('No.'),
        f: REFUSED,
      });
      expectSubscriptions(model$.subscriptions).toBe([]);
    });
  });

  it('passes a source error and an empty source on unchanged', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const failing$ = cold('-a-#', { a: t('x') }, new Error('upstream'));
      const empty$ = cold<ChatChunk>('--|');
      const chain = createAdvisorChain({
        advisors: [guard()],
        model: MockChatModel.fromStreams([failing$, empty$]),
      });
      expectObservable(chain.next(ask('hi'))).toBe('-a-#', { a: t('x') }, new Error('upstream'));
      expectObservable(chain.next(ask('hi'))).toBe('--|');
      expectSubscriptions(failing$.subscriptions).toBe('^--!');
      expectSubscriptions(empty$.subscriptions).toBe('^-!');
    });
  });

  it('tears the model stream down on early unsubscription', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a--b-f|', { a: t('x'), b: t('y'), f: FINISH });
      const chain = createAdvisorChain({
        advisors: [guard()],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(ask('hi')), '^--!').toBe('-a-', { a: t('x') });
      expectSubscriptions(model$.subscriptions).toBe('^--!');
    });
  });

  it('checks again on every subscription, sharing no state', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const first$ = cold('-a|', { a: t('one') });
      const second$ = cold('-b|', { b: t('two') });
      const chain = createAdvisorChain({
        advisors: [guard()],
        model: MockChatModel.fromStreams([first$, second$]),
      });
      const harmless$ = chain.next(ask('hi'));
      const refused$ = chain.next(ask('PASSWORD'));
      expectObservable(harmless$).toBe('-a|', { a: t('one') });
      expectObservable(refused$).toBe('(rf|)', { r: t('No.'), f: REFUSED });
      expectObservable(refused$, '---^').toBe('---(rf|)', { r: t('No.'), f: REFUSED });
      expectObservable(harmless$, '----^').toBe('-----b|', { b: t('two') });
      expectSubscriptions(first$.subscriptions).toBe('^-!');
      expectSubscriptions(second$.subscriptions).toBe('----^-!');
    });
  });
});
