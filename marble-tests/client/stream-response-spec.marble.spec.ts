import { type TestScheduler } from 'rxjs/testing';
import { ChatClient, type ChatChunk } from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

const chunks: Record<string, ChatChunk> = {
  m: { type: 'metadata', id: 'r1', model: 'mock' },
  a: { type: 'text-delta', text: 'Hel' },
  r: { type: 'reasoning-delta', text: 'hmm' },
  b: { type: 'text-delta', text: 'lo' },
  u: { type: 'usage', usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } },
  f: { type: 'finish', reason: 'stop' },
};

describe('StreamResponseSpec.content (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('emits only the text deltas, on their own frames', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-m-a-r-b-u-f|', chunks);
      const client = ChatClient.create(MockChatModel.fromStreams([model$]));
      expectObservable(client.prompt('Hi').stream().content()).toBe('---a---b----|', {
        a: 'Hel',
        b: 'lo',
      });
      expectSubscriptions(model$.subscriptions).toBe('^-----------!');
    });
  });

  it('passes the model error on', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a-#', chunks, new Error('boom'));
      const client = ChatClient.create(MockChatModel.fromStreams([model$]));
      expectObservable(client.prompt('Hi').stream().content()).toBe(
        '-a-#',
        { a: 'Hel' },
        new Error('boom'),
      );
      expectSubscriptions(model$.subscriptions).toBe('^--!');
    });
  });

  it('completes empty when the model sends no text', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const model$ = cold('-m-f|', chunks);
      const client = ChatClient.create(MockChatModel.fromStreams([model$]));
      expectObservable(client.prompt('Hi').stream().content()).toBe('----|');
    });
  });

  it('unsubscribes the model when the caller unsubscribes early', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a---b-f|', chunks);
      const client = ChatClient.create(MockChatModel.fromStreams([model$]));
      expectObservable(client.prompt('Hi').stream().content(), '^--!').toBe('-a--', {
        a: 'Hel',
      });
      expectSubscriptions(model$.subscriptions).toBe('^--!');
    });
  });

  it('runs a new model call per subscription', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const first$ = cold('-a-f|', chunks);
      const second$ = cold('--b-f|', chunks);
      const client = ChatClient.create(MockChatModel.fromStreams([first$, second$]));
      const content$ = client.prompt('Hi').stream().content();
      expectObservable(content$).toBe('-a--|', { a: 'Hel' });
      expectObservable(content$).toBe('--b--|', { b: 'lo' });
      expectSubscriptions(first$.subscriptions).toBe('^---!');
      expectSubscriptions(second$.subscriptions).toBe('^----!');
    });
  });
});
