import { type Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import { ChatRequest, createAdvisorChain, type ChatChunk } from '../../lib/index';
import {
  GuardrailsAdvisor,
  wordGuardrail,
  type GuardrailsAdvisorOptions,
  type GuardrailVerdict,
  type InputGuardrail,
} from '../../lib/guardrails/index';
import { MockChatModel } from '../../lib/testing/index';
import { createTestScheduler } from '../support/test-scheduler';

const t = (text: string): ChatChunk => ({ type: 'text-delta', text });
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };
const FILTERED: ChatChunk = { type: 'finish', reason: 'content-filter' };
const ask = (content: string) => ChatRequest.create({ messages: [{ role: 'user', content }] });
/** "secret" is 6 characters: the word guardrail holds back 6 (the word, then one to see its end). */
const secret = wordGuardrail({
  name: 'no-secret',
  words: ['secret'],
  message: 'Withheld.',
  holdBack: 5,
});
const tripped = (stage: 'input' | 'output', guardrail: string, message: string): ChatChunk => ({
  type: 'guardrail-tripped',
  guardrail,
  stage,
  message,
  withdraw: true,
});

describe('GuardrailsAdvisor (marble)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  const chainOf = (options: GuardrailsAdvisorOptions, ...streams: Observable<ChatChunk>[]) =>
    createAdvisorChain({
      advisors: [new GuardrailsAdvisor(options)],
      model: MockChatModel.fromStreams(streams),
    });

  it('holds back the end of the text and releases it when more comes, or at finish', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a--b--c-f---|', { a: t('the se'), b: t('cr'), c: t('ets'), f: FINISH });
      // holdBack 5: 'the se' releases 't'; 'cr' releases 'he'; 'ets' ('secrets' is not
      // 'secret') releases ' se'; finish releases the rest before it.
      expectObservable(chainOf({ output: [secret] }, model$).next(ask('hi'))).toBe(
        '-a--b--c-(df)|',
        { a: t('t'), b: t('he'), c: t(' se'), d: t('crets'), f: FINISH },
      );
      expectSubscriptions(model$.subscriptions).toBe('^------------!');
    });
  });

  it('trips on the chunk that completes the word, before any of it left, and cuts the model off', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a--b--c--d-f|', {
        a: t('the se'),
        b: t('cr'),
        c: t('et!'),
        d: t('more'),
        f: FINISH,
      });
      expectObservable(chainOf({ output: [secret] }, model$).next(ask('hi'))).toBe(
        '-a--b--(xyf|)',
        {
          a: t('t'),
          b: t('he'),
          x: tripped('output', 'no-secret', 'Withheld.'),
          y: t('Withheld.'),
          f: FILTERED,
        },
      );
      expectSubscriptions(model$.subscriptions).toBe('^------!');
    });
  });

  it('holds the answer until an input check passes, then releases it in order', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a-b-----c-f|', { a: t('x'), b: t('y'), c: t('z'), f: FINISH });
      const check$ = cold<GuardrailVerdict>('-----(p|)', { p: { tripped: false } });
      const slow: InputGuardrail = { name: 'slow', checkInput: () => check$ };
      expectObservable(chainOf({ input: [slow] }, model$).next(ask('hi'))).toBe('-----(ab)c-f|', {
        a: t('x'),
        b: t('y'),
        c: t('z'),
        f: FINISH,
      });
      // Both start at once: the check runs in parallel with the model call.
      expectSubscriptions(model$.subscriptions).toBe('^-----------!');
      expectSubscriptions(check$.subscriptions).toBe('^----!');
    });
  });

  it('ends with the trip when an input check fails, unsubscribing the model at that frame', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a-b-----c-f|', { a: t('x'), b: t('y'), c: t('z'), f: FINISH });
      const check$ = cold<GuardrailVerdict>('----(t|)', {
        t: { tripped: true, message: 'No.' },
      });
      const strict: InputGuardrail = { name: 'strict', checkInput: () => check$ };
      expectObservable(chainOf({ input: [strict] }, model$).next(ask('hi'))).toBe('----(xyf|)', {
        x: tripped('input', 'strict', 'No.'),
        y: t('No.'),
        f: FILTERED,
      });
      expectSubscriptions(model$.subscriptions).toBe('^---!');
    });
  });

  it('holds an early model end or error until the verdict', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const done$ = cold('-a|', { a: t('x') });
      const failing$ = cold('-a#', { a: t('x') }, new Error('model down'));
      const check$ = cold<GuardrailVerdict>('----(p|)', { p: { tripped: false } });
      const slow: InputGuardrail = { name: 'slow', checkInput: () => check$ };
      const chain = chainOf({ input: [slow] }, done$, failing$);
      expectObservable(chain.next(ask('hi'))).toBe('----(a|)', { a: t('x') });
      expectObservable(chain.next(ask('hi'))).toBe(
        '----(a#)',
        { a: t('x') },
        new Error('model down'),
      );
    });
  });

  it('unsubscribes the model and the pending check when the caller unsubscribes', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a-b-----c-f|', { a: t('x'), b: t('y'), c: t('z'), f: FINISH });
      const check$ = cold<GuardrailVerdict>('------(p|)', { p: { tripped: false } });
      const slow: InputGuardrail = { name: 'slow', checkInput: () => check$ };
      expectObservable(
        chainOf({ input: [slow], output: [secret] }, model$).next(ask('hi')),
        '^--!',
      ).toBe('----');
      expectSubscriptions(model$.subscriptions).toBe('^--!');
      expectSubscriptions(check$.subscriptions).toBe('^--!');
    });
  });

  it('passes a source error on, and completes on an empty source', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const failing$ = cold('-a-#', { a: t('x') }, new Error('upstream'));
      const empty$ = cold<ChatChunk>('--|');
      const chain = chainOf({ output: [secret] }, failing$, empty$);
      expectObservable(chain.next(ask('hi'))).toBe('---#', {}, new Error('upstream'));
      expectObservable(chain.next(ask('hi'))).toBe('--|');
    });
  });

  it('fails when a guardrail throws, and starts clean on re-subscription', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const model$ = cold('-a-f---|', { a: t('se'), f: FINISH });
      let calls = 0;
      const flaky = {
        name: 'flaky',
        holdBack: 2,
        checkOutput: () => {
          if (++calls === 1) throw new Error('bug');
          return undefined;
        },
      };
      const call$ = chainOf({ output: [flaky] }, model$, model$).next(ask('hi'));
      expectObservable(call$).toBe('-#', {}, new Error('bug'));
      // A second subscription holds nothing over from the first.
      expectObservable(call$).toBe('---(af)|', { a: t('se'), f: FINISH });
    });
  });
});
