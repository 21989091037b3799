import { type TestScheduler } from 'rxjs/testing';
import { ChatRequest, type ChatChunk } from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

describe('MockChatModel (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('waits `delay` and spaces chunks by `interval` in virtual time', () => {
    testScheduler.run(({ expectObservable }) => {
      const model = MockChatModel.script([{ text: 'a b', delay: 5, interval: 2, id: 'r' }]);
      const values: Record<string, ChatChunk> = {
        m: { type: 'metadata', id: 'r', model: 'mock-model' },
        a: { type: 'text-delta', text: 'a' },
        b: { type: 'text-delta', text: ' b' },
        f: { type: 'finish', reason: 'stop' },
      };
      expectObservable(model.stream(request)).toBe('5ms m-a-b-(f|)', values);
    });
  });

  it('subscribes one cold stream per model call in the marble form', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const first$ = cold<ChatChunk>('-a|', { a: { type: 'text-delta', text: '1' } });
      const second$ = cold<ChatChunk>('--b|', { b: { type: 'text-delta', text: '2' } });
      const model = MockChatModel.fromStreams([first$, second$]);
      expectObservable(model.stream(request)).toBe('-a|', { a: { type: 'text-delta', text: '1' } });
      expectObservable(model.stream(request)).toBe('--b|', {
        b: { type: 'text-delta', text: '2' },
      });
      expectSubscriptions(first$.subscriptions).toBe('^-!');
      expectSubscriptions(second$.subscriptions).toBe('^--!');
    });
  });

  it('stops playing on unsubscribe', () => {
    testScheduler.run(({ expectObservable }) => {
      const model = MockChatModel.script([{ text: 'a b c', interval: 3, id: 'r' }]);
      expectObservable(model.stream(request), '^----!').toBe('m--a', {
        m: { type: 'metadata', id: 'r', model: 'mock-model' },
        a: { type: 'text-delta', text: 'a' },
      });
    });
  });
});
