import { type TestScheduler } from 'rxjs/testing';
import {
  ChatRequest,
  createAdvisorChain,
  LoggerAdvisor,
  tool,
  ToolCallingAdvisor,
  type ChatChunk,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

const t = (text: string): ChatChunk => ({ type: 'text-delta', text });
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };
const request = () => ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

/** A LoggerAdvisor that records `frame:message=details` in virtual time. */
function timedLogger(testScheduler: TestScheduler) {
  const lines: string[] = [];
  const advisor = new LoggerAdvisor({
    logger: {
      info: (message, details) =>
        lines.push(`${testScheduler.now()}:${message}=${String(details)}`),
    },
    formatRequest: (r) => r.lastUserText,
    formatResponse: (r) => r.text,
  });
  return { lines, advisor };
}

describe('LoggerAdvisor (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('passes chunks through on their frames; logs at subscription and at completion', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a--b-f|', { a: t('x'), b: t('y'), f: FINISH });
      const { lines, advisor } = timedLogger(testScheduler);
      const chain = createAdvisorChain({
        advisors: [advisor],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(request())).toBe('-a--b-f|', {
        a: t('x'),
        b: t('y'),
        f: FINISH,
      });
      expectSubscriptions(model$.subscriptions).toBe('^------!');
      testScheduler.flush();
      expect(lines).toEqual(['0:[logger] request=Hi', '7:[logger] response=xy']);
    });
  });

  it('logs a source error on its frame and passes it on', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a--#', { a: t('x') }, new Error('upstream'));
      const { lines, advisor } = timedLogger(testScheduler);
      const chain = createAdvisorChain({
        advisors: [advisor],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(request())).toBe('-a--#', { a: t('x') }, new Error('upstream'));
      expectSubscriptions(model$.subscriptions).toBe('^---!');
      testScheduler.flush();
      expect(lines).toEqual(['0:[logger] request=Hi', '4:[logger] error=upstream']);
    });
  });

  it('logs nothing before subscription; an early unsubscription logs what streamed, as cancelled', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a--b-f|', { a: t('x'), b: t('y'), f: FINISH });
      const { lines, advisor } = timedLogger(testScheduler);
      const chain = createAdvisorChain({
        advisors: [advisor],
        model: MockChatModel.fromStreams([model$]),
      });
      const call$ = chain.next(request());
      expect(lines).toEqual([]);
      expectObservable(call$, '--^--!').toBe('---a-', { a: t('x') });
      expectSubscriptions(model$.subscriptions).toBe('--^--!');
      testScheduler.flush();
      expect(lines).toEqual(['2:[logger] request=Hi', '5:[logger] cancelled=x']);
    });
  });

  it('logs a cancellation before the first chunk with an empty response', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('---a-f|', { a: t('x'), f: FINISH });
      const { lines, advisor } = timedLogger(testScheduler);
      const chain = createAdvisorChain({
        advisors: [advisor],
        model: MockChatModel.fromStreams([model$]),
      });
      expectObservable(chain.next(request()), '^-!').toBe('---');
      expectSubscriptions(model$.subscriptions).toBe('^-!');
      testScheduler.flush();
      expect(lines).toEqual(['0:[logger] request=Hi', '2:[logger] cancelled=']);
    });
  });

  it('logs exactly one final entry per call: unsubscribing after the end logs nothing more', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const done$ = cold('-a-f|', { a: t('x'), f: FINISH });
      const failed$ = cold('-a#', { a: t('y') }, new Error('boom'));
      const { lines, advisor } = timedLogger(testScheduler);
      const chain = createAdvisorChain({
        advisors: [advisor],
        model: MockChatModel.fromStreams([done$, failed$]),
      });
      const call$ = chain.next(request());
      expectObservable(call$, '^------!').toBe('-a-f|', { a: t('x'), f: FINISH });
      expectObservable(call$, '^------!').toBe('-a#', { a: t('y') }, new Error('boom'));
      testScheduler.flush();
      expect(lines).toEqual([
        '0:[logger] request=Hi',
        '0:[logger] request=Hi',
        '2:[logger] error=boom',
        '4:[logger] response=x',
      ]);
    });
  });

  it('inside the tool loop: earlier rounds log their response, the cut round logs cancelled', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const round1$ = cold<ChatChunk>('-c-g|', {
        c: { type: 'tool-call', id: 'c1', name: 'ping', arguments: '{}' },
        g: { type: 'finish', reason: 'tool-calls' },
      });
      const round2$ = cold('-a--b-f|', { a: t('x'), b: t('y'), f: FINISH });
      const { lines, advisor } = timedLogger(testScheduler);
      const ping = tool({
        name: 'ping',
        description: 'Answers pong.',
        parameters: { type: 'object', properties: {} },
        execute: () => 'pong',
      });
      const chain = createAdvisorChain({
        advisors: [new ToolCallingAdvisor(), advisor],
        model: MockChatModel.fromStreams([round1$, round2$]),
      });
      const call$ = chain.next(
        ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }], tools: [ping] }),
      );
      expectObservable(call$, '^-------!').toBe('-----a---', { a: t('x') });
      expectSubscriptions(round1$.subscriptions).toBe('^---!');
      expectSubscriptions(round2$.subscriptions).toBe('----^---!');
      testScheduler.flush();
      expect(lines).toEqual([
        '0:[logger] request=Hi',
        '4:[logger] response=',
        '4:[logger] request=Hi',
        '8:[logger] cancelled=x',
      ]);
    });
  });

  it('logs each subscription on its own, with its own aggregated response', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const first$ = cold('-a-f|', { a: t('one'), f: FINISH });
      const second$ = cold('-b|', { b: t('two') });
      const { lines, advisor } = timedLogger(testScheduler);
      const chain = createAdvisorChain({
        advisors: [advisor],
        model: MockChatModel.fromStreams([first$, second$]),
      });
      const call$ = chain.next(request());
      expectObservable(call$).toBe('-a-f|', { a: t('one'), f: FINISH });
      expectObservable(call$, '--^').toBe('---b|', { b: t('two') });
      testScheduler.flush();
      expect(lines).toEqual([
        '0:[logger] request=Hi',
        '2:[logger] request=Hi',
        '4:[logger] response=one',
        '4:[logger] response=two',
      ]);
    });
  });
});
