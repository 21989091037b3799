import { filter, type Observable } from 'rxjs';
import { type TestScheduler } from 'rxjs/testing';
import {
  ChatRequest,
  createAdvisorChain,
  tool,
  ToolCallingAdvisor,
  type ChatChunk,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { TelemetryHarness } from '../../spec/otel/support/telemetry-harness';
import { createTestScheduler } from '../support/test-scheduler';

const t = (text: string): ChatChunk => ({ type: 'text-delta', text });
const FINISH: ChatChunk = { type: 'finish', reason: 'stop' };
const values = { a: t('x'), b: t('y'), f: FINISH };
const request = () => ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

describe('OpenTelemetryAdvisor (marble)', () => {
  let testScheduler: TestScheduler;
  let otel: TelemetryHarness;

  beforeEach(() => {
    testScheduler = createTestScheduler();
    otel = new TelemetryHarness();
  });
  afterEach(() => otel.shutdown());

  const chainOver = (...streams: Observable<ChatChunk>[]) =>
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

describe('OpenTelemetryAdvisor tool spans (marble)', () => {
  let testScheduler: TestScheduler;
  let otel: TelemetryHarness;

  beforeEach(() => {
    testScheduler = createTestScheduler();
    otel = new TelemetryHarness();
  });
  afterEach(() => otel.shutdown());

  const callsTool = (): ChatChunk[] => [
    { type: 'tool-call', id: 'c1', name: 'slow', arguments: '{}' },
    { type: 'finish', reason: 'tool-calls' },
  ];

  it('spans a tool for exactly as long as its Observable runs', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const tool$ = cold('----(r|)', { r: 'done' });
      const slow = tool({
        name: 'slow',
        description: 'Takes 4 frames',
        parameters: { type: 'object', properties: {} },
        execute: () => tool$,
      });
      const model = MockChatModel.fromStreams([
        cold('-(cf|)', { c: callsTool()[0], f: callsTool()[1] }),
        cold('-a-(f|)', values),
      ]);
      const chain = createAdvisorChain({
        advisors: [otel.advisor(), new ToolCallingAdvisor()],
        model,
      });
      expectObservable(
        chain.next(request().withTools([slow])).pipe(filter((c) => c.type === 'text-delta')),
      ).toBe('------a-|', values);
      expectSubscriptions(tool$.subscriptions).toBe('-^---!');
    });
    expect(otel.names()).toEqual([
      'chat',
      'execute_tool slow',
      'chat',
      'invoke_workflow OpenTelemetryAdvisor',
    ]);
  });

  it('ends the tool span as cancelled when the call is unsubscribed mid-tool', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const tool$ = cold('--------(r|)', { r: 'done' });
      const slow = tool({
        name: 'slow',
        description: 'Takes 8 frames',
        parameters: { type: 'object', properties: {} },
        execute: () => tool$,
      });
      const model = MockChatModel.fromStreams([
        cold('-(cf|)', { c: callsTool()[0], f: callsTool()[1] }),
      ]);
      const chain = createAdvisorChain({
        advisors: [otel.advisor(), new ToolCallingAdvisor()],
        model,
      });
      expectObservable(chain.next(request().withTools([slow])), '^---!').toBe('----');
      expectSubscriptions(tool$.subscriptions).toBe('-^--!');
    });
    expect(otel.spans.map((span) => [span.name, span.attributes['rx_advisors.cancelled']])).toEqual(
      [
        ['chat', undefined],
        ['execute_tool slow', true],
        ['invoke_workflow OpenTelemetryAdvisor', true],
      ],
    );
  });
});
