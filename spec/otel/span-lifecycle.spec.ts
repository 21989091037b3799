import { SpanStatusCode } from '@opentelemetry/api';
import { NEVER, Subject, take } from 'rxjs';
import { ProviderError, tool, ToolCallingAdvisor, type ChatChunk } from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { client, getTime, run } from './support/fixtures';
import { OpenSpanTracker } from './support/open-span-tracker';
import { TelemetryHarness } from './support/telemetry-harness';

const toolRound = (city: string) => ({
  toolCalls: [{ name: 'getTime', arguments: { city } }],
  usage: { inputTokens: 1, outputTokens: 1 },
});

describe('OpenTelemetryAdvisor span lifecycle: every span ends exactly once', () => {
  let tracker: OpenSpanTracker;
  let otel: TelemetryHarness;
  beforeEach(() => {
    tracker = new OpenSpanTracker();
    otel = new TelemetryHarness([tracker]);
  });
  afterEach(async () => {
    expect(tracker.open()).toEqual([]);
    expect(tracker.endedTwice()).toEqual([]);
    await otel.shutdown();
  });

  const statusOf = (name: string) =>
    otel.spans.filter((s) => s.name === name).map((s) => s.status.code);

  it('on completion: call, rounds and tools end without error', async () => {
    const model = MockChatModel.script([toolRound('Paris'), { text: 'noon' }]);
    await run(client(model, [otel.advisor()], [getTime]));
    expect(otel.names().sort()).toEqual(
      ['chat', 'chat', 'execute_tool getTime', 'invoke_workflow OpenTelemetryAdvisor'].sort(),
    );
    expect(otel.spans.every((span) => span.status.code === SpanStatusCode.UNSET)).toBe(true);
  });

  it('on a provider error in round 3: that round and the call end with ERROR and error.type', async () => {
    const model = MockChatModel.script([
      toolRound('Paris'),
      toolRound('Rome'),
      { error: new ProviderError({ provider: 'mock', message: 'overloaded', status: 529 }) },
    ]);
    const result = await run(client(model, [otel.advisor()], [getTime]));
    expect(result).toEqual({ error: expect.any(ProviderError) });
    expect(statusOf('chat')).toEqual([
      SpanStatusCode.UNSET,
      SpanStatusCode.UNSET,
      SpanStatusCode.ERROR,
    ]);
    expect(statusOf('execute_tool getTime')).toEqual([SpanStatusCode.UNSET, SpanStatusCode.UNSET]);
    const third = otel.spans.filter((s) => s.name === 'chat')[2];
    expect(third.attributes).toMatchObject({
      'error.type': 'ProviderError',
      'rx_advisors.model_call': 3,
    });
    const call = otel.span('invoke_workflow OpenTelemetryAdvisor');
    expect(call.status).toEqual({ code: SpanStatusCode.ERROR, message: 'ProviderError' });
    expect(call.attributes).toMatchObject({
      'error.type': 'ProviderError',
      'rx_advisors.rounds': 3,
    });
  });

  it('on a tool that throws: the tool span fails, the loop goes on (report policy)', async () => {
    const broken = tool({
      name: 'getTime',
      description: 'Fails',
      parameters: { type: 'object', properties: {} },
      execute: () => {
        throw new RangeError('no clock');
      },
    });
    const model = MockChatModel.script([toolRound('Paris'), { text: 'sorry' }]);
    expect(await run(client(model, [otel.advisor()], [broken]))).toEqual({ text: 'sorry' });
    const span = otel.span('execute_tool getTime');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('RangeError');
    expect(statusOf('invoke_workflow OpenTelemetryAdvisor')).toEqual([SpanStatusCode.UNSET]);
  });

  it('on a Promise tool that rejects: the tool span fails with its error type', async () => {
    const broken = tool({
      name: 'getTime',
      description: 'Fails later',
      parameters: { type: 'object', properties: {} },
      execute: () => Promise.reject(new SyntaxError('bad clock')),
    });
    const model = MockChatModel.script([toolRound('Paris'), { text: 'sorry' }]);
    await run(client(model, [otel.advisor()], [broken]));
    expect(otel.span('execute_tool getTime').attributes['error.type']).toBe('SyntaxError');
  });

  it('on unsubscribe during a model call: round and call end cancelled', () => {
    const chunks = new Subject<ChatChunk>();
    const model = MockChatModel.fromStreams([chunks]);
    const chat = client(model, [otel.advisor()]);
    const seen: string[] = [];
    const subscription = chat
      .prompt('Hi')
      .stream()
      .content()
      .subscribe((text) => seen.push(text));
    chunks.next({ type: 'text-delta', text: 'Hel' });
    subscription.unsubscribe();
    expect(seen).toEqual(['Hel']);
    expect(chunks.observed).toBe(false);
    for (const name of ['chat', 'invoke_workflow OpenTelemetryAdvisor']) {
      expect(otel.span(name).attributes['rx_advisors.cancelled']).toBe(true);
      expect(otel.span(name).status.code).toBe(SpanStatusCode.UNSET);
    }
  });

  it('on unsubscribe during a running tool: tool and call end cancelled, the tool is aborted', async () => {
    let aborted = false;
    const slow = tool({
      name: 'getTime',
      description: 'Never answers',
      parameters: { type: 'object', properties: {} },
      execute: (_args, { signal }) => {
        signal.addEventListener('abort', () => (aborted = true));
        return NEVER;
      },
    });
    const model = MockChatModel.script([toolRound('Paris'), { text: 'never' }]);
    const chat = client(model, [otel.advisor()], [slow]);
    const subscription = chat.prompt('Hi').stream().chunks().subscribe();
    await new Promise((resolve) => setImmediate(resolve));
    expect(otel.names()).toEqual(['chat']);
    subscription.unsubscribe();
    expect(aborted).toBe(true);
    expect(otel.span('execute_tool getTime').attributes['rx_advisors.cancelled']).toBe(true);
    expect(
      otel.span('invoke_workflow OpenTelemetryAdvisor').attributes['rx_advisors.cancelled'],
    ).toBe(true);
    expect(otel.span('chat').attributes['rx_advisors.cancelled']).toBeUndefined();
  });

  it('on unsubscribe during a running Promise tool: the tool span ends cancelled, and its late result records nothing', async () => {
    let settle: (value: string) => void = () => undefined;
    const slow = tool({
      name: 'getTime',
      description: 'Answers when told to',
      parameters: { type: 'object', properties: {} },
      execute: () => new Promise<string>((resolve) => (settle = resolve)),
    });
    const model = MockChatModel.script([toolRound('Paris'), { text: 'never' }]);
    const subscription = client(model, [otel.advisor()], [slow])
      .prompt('Hi')
      .stream()
      .chunks()
      .subscribe();
    await new Promise((resolve) => setImmediate(resolve));
    subscription.unsubscribe();
    expect(otel.span('execute_tool getTime').attributes['rx_advisors.cancelled']).toBe(true);
    settle('late');
    await new Promise((resolve) => setImmediate(resolve));
    expect(otel.names().filter((name) => name.startsWith('execute_tool'))).toHaveLength(1);
    expect(await otel.points('rx_advisors.tool.duration')).toEqual([]);
  });

  it('on a Promise tool past its time limit: the tool span ends cancelled, the model hears of the timeout', async () => {
    const slow = tool({
      name: 'getTime',
      description: 'Never answers',
      parameters: { type: 'object', properties: {} },
      execute: () => new Promise<string>(() => undefined),
    });
    const model = MockChatModel.script([toolRound('Paris'), { text: 'gave up' }]);
    const chat = client(
      model,
      [otel.advisor(), new ToolCallingAdvisor({ toolTimeout: 5 })],
      [slow],
    );
    expect(await run(chat)).toEqual({ text: 'gave up' });
    expect(otel.span('execute_tool getTime').attributes['rx_advisors.cancelled']).toBe(true);
    const result = model.requests[1].messages.find((message) => message.role === 'tool');
    expect(result).toMatchObject({ isError: true });
  });

  it('on a Promise tool that resolves: the tool span ends once, with the tool duration recorded', async () => {
    const later = tool({
      name: 'getTime',
      description: 'Answers later',
      parameters: { type: 'object', properties: {} },
      execute: async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return 'noon';
      },
    });
    const model = MockChatModel.script([toolRound('Paris'), { text: 'noon' }]);
    expect(await run(client(model, [otel.advisor()], [later]))).toEqual({ text: 'noon' });
    expect(otel.span('execute_tool getTime').attributes['rx_advisors.cancelled']).toBeUndefined();
    const [point] = await otel.points('rx_advisors.tool.duration');
    expect((point.value as { count: number }).count).toBe(1);
  });

  it('on an empty model stream: spans end normally', async () => {
    const model = MockChatModel.fromStreams([NEVER.pipe(take(0))]);
    await run(client(model, [otel.advisor()]));
    expect(otel.names()).toEqual(['chat', 'invoke_workflow OpenTelemetryAdvisor']);
  });

  it('on an error thrown by an advisor inside the call: the call span fails', async () => {
    const { advisor } = await import('../../lib/index');
    const failing = advisor({
      name: 'failing',
      before: () => {
        throw new TypeError('bad request');
      },
    });
    const model = MockChatModel.script([{ text: 'x' }]);
    expect(await run(client(model, [otel.advisor(), failing]))).toEqual({
      error: expect.any(TypeError),
    });
    expect(otel.span('invoke_workflow OpenTelemetryAdvisor').attributes['error.type']).toBe(
      'TypeError',
    );
    expect(otel.names()).toEqual(['invoke_workflow OpenTelemetryAdvisor']);
  });
});
