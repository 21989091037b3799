import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { lastValueFrom } from 'rxjs';
import { advisor, InvalidOptionsError, ProviderError, RetryAdvisor, tool } from '../../lib/index';
import { CallInterceptors } from '../../lib/advisor-api/index';
import { OpenTelemetryAdvisor, TelemetryParams } from '../../lib/otel/index';
import { MockChatModel } from '../../lib/testing/index';
import { client, getTime, run } from './support/fixtures';
import {
  idOf,
  parentOf,
  TelemetryHarness,
  useAsyncLocalStorageContext,
} from './support/telemetry-harness';

const twoRounds = () =>
  MockChatModel.script([
    {
      toolCalls: [{ id: 'call-1', name: 'getTime', arguments: { city: 'Paris' } }],
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 3 },
      id: 'resp-1',
    },
    {
      text: 'It is noon in Paris.',
      usage: { inputTokens: 20, outputTokens: 7, reasoningTokens: 2 },
      id: 'resp-2',
    },
  ]);

describe('OpenTelemetryAdvisor spans', () => {
  useAsyncLocalStorageContext();
  let otel: TelemetryHarness;
  beforeEach(() => (otel = new TelemetryHarness()));
  afterEach(() => otel.shutdown());

  it('traces a two-round tool call as call → chat, chat; execute_tool under the round that asked', async () => {
    const chat = client(twoRounds(), [otel.advisor()], [getTime]);
    const result = await run(chat);
    expect(result).toEqual({ text: 'It is noon in Paris.' });

    const call = otel.span('invoke_workflow OpenTelemetryAdvisor');
    const rounds = otel.spans.filter((span) => span.name === 'chat');
    const toolSpan = otel.span('execute_tool getTime');
    expect(rounds).toHaveLength(2);
    expect(parentOf(call)).toBeUndefined();
    expect(rounds.map(parentOf)).toEqual([idOf(call), idOf(call)]);
    expect(parentOf(toolSpan)).toBe(idOf(rounds[0]));
    expect(rounds[0].kind).toBe(SpanKind.CLIENT);

    expect(rounds[0].attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'mock',
      'gen_ai.response.id': 'resp-1',
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 10,
      'gen_ai.usage.output_tokens': 5,
      'gen_ai.usage.cache_read.input_tokens': 3,
      'rx_advisors.model_call': 1,
    });
    expect(rounds[0].attributes['gen_ai.response.time_to_first_chunk']).toEqual(expect.any(Number));
    expect(rounds[1].attributes).toMatchObject({
      'gen_ai.response.id': 'resp-2',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.reasoning.output_tokens': 2,
      'rx_advisors.model_call': 2,
    });
    expect(toolSpan.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'getTime',
      'gen_ai.tool.call.id': 'call-1',
      'rx_advisors.round': 1,
    });
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.provider.name': 'mock',
      'gen_ai.usage.input_tokens': 30,
      'gen_ai.usage.output_tokens': 12,
      'gen_ai.response.finish_reasons': ['stop'],
      'rx_advisors.rounds': 2,
    });
    expect(otel.spans.every((span) => span.status.code !== SpanStatusCode.ERROR)).toBe(true);
  });

  it('names the round after the request model and records its options', async () => {
    const chat = client(MockChatModel.script([{ text: 'Hi' }]), [otel.advisor()]);
    await run(
      chat
        .mutate()
        .defaultOptions({ model: 'gpt-x', temperature: 0.2, maxTokens: 99, topP: 0.9 })
        .build(),
    );
    expect(otel.span('chat gpt-x').attributes).toMatchObject({
      'gen_ai.request.model': 'gpt-x',
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.max_tokens': 99,
      'gen_ai.request.top_p': 0.9,
      'gen_ai.response.model': 'mock-model',
    });
  });

  it('makes the tool span the active context inside a running tool', async () => {
    const tracer = otel.tracerProvider.getTracer('db-driver');
    const query = tool({
      name: 'query',
      description: 'Runs a query',
      parameters: { type: 'object', properties: {} },
      execute: async () => {
        await new Promise((resolve) => setImmediate(resolve));
        const own = tracer.startSpan('SELECT');
        own.end();
        return 'rows';
      },
    });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'query', arguments: {} }] },
      { text: 'done' },
    ]);
    await run(client(model, [otel.advisor()], [query]));
    expect(parentOf(otel.span('SELECT'))).toBe(idOf(otel.span('execute_tool query')));
    // The next round does not nest under the tool whose callback started it.
    const rounds = otel.spans.filter((span) => span.name === 'chat');
    expect(parentOf(rounds[1])).toBe(idOf(otel.span('invoke_workflow OpenTelemetryAdvisor')));
  });

  it('nests the call span under the span active when the call is subscribed', async () => {
    const outer = otel.tracerProvider.getTracer('http').startSpan('GET /chat');
    const chat = client(MockChatModel.script([{ text: 'Hi' }]), [otel.advisor()]);
    await context.with(trace.setSpan(context.active(), outer), () => run(chat));
    outer.end();
    expect(parentOf(otel.span('invoke_workflow OpenTelemetryAdvisor'))).toBe(
      idOf(otel.span('GET /chat')),
    );
  });

  it('adds advisor spans only when asked', async () => {
    const model = () =>
      MockChatModel.script([
        { toolCalls: [{ name: 'getTime', arguments: { city: 'Rome' } }] },
        { text: 'ok' },
      ]);
    await run(client(model(), [otel.advisor()], [getTime]));
    expect(otel.names().filter((name) => name.startsWith('advisor '))).toEqual([]);

    otel.spanExporter.reset();
    await run(client(model(), [otel.advisor({ advisorSpans: true })], [getTime]));
    const loop = otel.span('advisor ToolCallingAdvisor');
    expect(loop.attributes).toMatchObject({ 'rx_advisors.advisor.name': 'ToolCallingAdvisor' });
    expect(parentOf(loop)).toBe(idOf(otel.span('invoke_workflow OpenTelemetryAdvisor')));
    const rounds = otel.spans.filter((span) => span.name === 'chat');
    expect(rounds.map(parentOf)).toEqual([idOf(loop), idOf(loop)]);
  });

  it('records a retry as an event on the call span', async () => {
    const model = MockChatModel.script([
      {
        error: new ProviderError({
          provider: 'mock',
          message: 'busy',
          status: 503,
          retryable: true,
        }),
      },
      { text: 'ok' },
    ]);
    const retry = new RetryAdvisor({ backoff: () => 0, jitter: 0 });
    await run(client(model, [otel.advisor(), retry]));
    const call = otel.span('invoke_workflow OpenTelemetryAdvisor');
    expect(call.events.map((event) => [event.name, event.attributes])).toEqual([
      [
        'rx_advisors.retry',
        { 'rx_advisors.retry.attempt': 2, 'rx_advisors.retry.advisor': 'retry' },
      ],
    ]);
    const rounds = otel.spans.filter((span) => span.name === 'chat');
    expect(rounds.map((span) => span.status.code)).toEqual([
      SpanStatusCode.ERROR,
      SpanStatusCode.UNSET,
    ]);
    expect(rounds[0].attributes['error.type']).toBe('ProviderError');
  });

  it('records each structured-output attempt: a retry event, a chat span per attempt', async () => {
    const model = MockChatModel.script([{ text: '{"name": 7}' }, { text: '{"name": "Ada"}' }]);
    const person = {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    } as const;
    const entity = await lastValueFrom(
      client(model, [otel.advisor()]).prompt('A person').call().entity(person, { validate: true }),
    );
    expect(entity).toEqual({ name: 'Ada' });
    const call = otel.span('invoke_workflow OpenTelemetryAdvisor');
    expect(call.events.map((event) => event.attributes?.['rx_advisors.retry.attempt'])).toEqual([
      2,
    ]);
    expect(otel.names().filter((name) => name === 'chat')).toHaveLength(2);
  });

  it('records nothing for a call that turns it off, and spans again for the next', async () => {
    const chat = client(MockChatModel.script([{ text: 'a' }, { text: 'b' }]), [otel.advisor()]);
    await lastValueFrom(
      chat
        .prompt('quiet')
        .advisorParams({ [TelemetryParams.ENABLED]: false })
        .call()
        .content(),
    );
    expect(otel.spans).toEqual([]);
    await run(chat, 'loud');
    expect(otel.names()).toEqual(['chat', 'invoke_workflow OpenTelemetryAdvisor']);
  });

  it('starts fresh spans on re-subscription', async () => {
    const model = MockChatModel.respond(() => ({ text: 'again' }));
    const stream = client(model, [otel.advisor()]).prompt('Hi').stream().content();
    await lastValueFrom(stream);
    await lastValueFrom(stream);
    const calls = otel.spans.filter((span) => span.name.startsWith('invoke_workflow'));
    expect(calls).toHaveLength(2);
    expect(calls[0].spanContext().traceId).not.toBe(calls[1].spanContext().traceId);
    expect(calls.map((span) => span.attributes['rx_advisors.rounds'])).toEqual([1, 1]);
  });

  it('does nothing over the API without an SDK (no-op tracer and meter)', async () => {
    const seen: unknown[] = [];
    const probe = advisor({
      name: 'probe',
      before: (request) => {
        seen.push(CallInterceptors.toolCallInterceptors(request.context).length);
        return request;
      },
    });
    const model = twoRounds();
    const chat = client(model, [new OpenTelemetryAdvisor(), probe], [getTime]);
    expect(await run(chat)).toEqual({ text: 'It is noon in Paris.' });
    expect(seen).toEqual([0, 0]);
    expect(otel.spans).toEqual([]);
  });

  it('rejects bad options with a typed error', () => {
    expect(() => otel.advisor({ maxAttributeLength: 0 })).toThrow(InvalidOptionsError);
    expect(() => otel.advisor({ tracerProvider: {} as never })).toThrow(/getTracer/);
  });
});
