import { TestScheduler } from 'rxjs/testing';
import { ChatRequest, createAdvisorChain, type ChatChunk } from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { TelemetryHarness } from '../../spec/otel/support/telemetry-harness';

const t = (text: string): ChatChunk => ({ type: 'text-delta', text });
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };
const values = { a: t('x'), b: t('y'), f: FINISH };
const request = () => ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

describe('OpenTelemetryAdvisor (marble)', () => {
  let testScheduler: TestScheduler;
  let otel: TelemetryHarness;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    otel = new TelemetryHarness();
  });
  afterEach(() => otel.shutdown());

  const chainOver = (...streams: ReturnType<TestScheduler['createColdObservable']>[]) =>
    createAdvisorChain({ advisors: [otel.advisor()], model: MockChatModel.fromStreams(streams) });

  it('passes every chunk through unchanged, on its own frame', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a--b-f|', values);
      expectObservable(chainOver(model$).next(request())).toBe('-a--b-f|', values);
      expectSubscriptions(model$.subscriptions).toBe('^------!');
    });
    expect(otel.names()).toEqual(['chat', 'invoke_workflow OpenTelemetryAdvisor']);
  });

  it('passes a source error through and ends both spans with it', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a--#', values, new TypeError('socket hang up'));
      expectObservable(chainOver(model$).next(request())).toBe(
        '-a--#',
        values,
        new TypeError('socket hang up'),
      );
      expectSubscriptions(model$.subscriptions).toBe('^---!');
    });
    expect(otel.spans.map((span) => span.attributes['error.type'])).toEqual([
      'TypeError',
      'TypeError',
    ]);
  });

  it('tears down the model on early unsubscribe and ends both spans as cancelled', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model$ = cold('-a--b-f|', values);
      expectObservable(chainOver(model$).next(request()), '^--!').toBe('-a-', values);
      expectSubscriptions(model$.subscriptions).toBe('^--!');
    });
    expect(otel.spans.map((span) => span.attributes['rx_advisors.cancelled'])).toEqual([
      true,
      true,
    ]);
  });

  it('ends the spans of an empty stream without error', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      expectObservable(chainOver(cold('---|')).next(request())).toBe('---|');
    });
    expect(otel.spans.map((span) => span.status.code)).toEqual([0, 0]);
  });

  it('keeps no state between subscriptions', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const model$ = cold('-a-f|', values);
      const chain = createAdvisorChain({
        advisors: [otel.advisor()],
        model: MockChatModel.fromStreams([model$, model$]),
      });
      const call$ = chain.next(request());
      expectObservable(call$).toBe('-a-f|', values);
      expectObservable(call$, '------^').toBe('-------a-f|', values);
    });
    const calls = otel.spans.filter((span) => span.name.startsWith('invoke_workflow'));
    expect(calls.map((span) => span.attributes['rx_advisors.rounds'])).toEqual([1, 1]);
  });
});
