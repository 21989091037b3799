import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { lastValueFrom } from 'rxjs';
import { AdvisorParams, ProviderError } from '../../lib/index';
import { TelemetryParams } from '../../lib/otel/index';
import { MockChatModel } from '../../lib/testing/index';
import { client, getTime, run } from './support/fixtures';
import { TelemetryHarness } from './support/telemetry-harness';

/** A broken processor (as a broken exporter behind a SimpleSpanProcessor would be). */
class ThrowingProcessor implements SpanProcessor {
  onStart(_span: Span, _parent: Context): void {
    throw new Error('processor down');
  }
  onEnd(_span: ReadableSpan): void {
    throw new Error('exporter down');
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const SECRET = 'sk-live-0123456789abcdefghijklmnop';

describe('OpenTelemetryAdvisor with bad input', () => {
  const harnesses: TelemetryHarness[] = [];
  const harness = (processors: SpanProcessor[] = []) => {
    const created = new TelemetryHarness(processors);
    harnesses.push(created);
    return created;
  };
  afterEach(() => Promise.all(harnesses.splice(0).map((h) => h.shutdown())));

  const script = () =>
    MockChatModel.script([
      { toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }] },
      { text: 'It is noon.' },
    ]);

  it('a throwing span processor never breaks the stream', async () => {
    const otel = harness([new ThrowingProcessor()]);
    expect(await run(client(script(), [otel.advisor()], [getTime]))).toEqual({
      text: 'It is noon.',
    });
  });

  it('a throwing tracer provider never breaks the stream', async () => {
    const otel = harness();
    const tracerProvider = {
      getTracer: () => ({
        startSpan: () => {
          throw new Error('tracer down');
        },
        startActiveSpan: () => {
          throw new Error('tracer down');
        },
      }),
    };
    const chat = client(script(), [otel.advisor({ tracerProvider })], [getTime]);
    expect(await run(chat)).toEqual({ text: 'It is noon.' });
  });

  it('serializes non-primitive attributes and drops those that cannot be', async () => {
    const otel = harness();
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const advisor = otel.advisor({
      attributes: () => ({
        tenant: { id: 7 },
        tags: ['a', 'b'],
        mixed: [1, 'x'],
        fn: () => 1,
        cyclic,
      }),
    });
    const chat = client(MockChatModel.script([{ text: 'x' }]), [advisor]);
    await lastValueFrom(
      chat
        .prompt('x')
        .advisorParams({
          [AdvisorParams.CONVERSATION_ID]: 'conv-1',
          [TelemetryParams.ATTRIBUTES]: { region: 'eu' },
        })
        .call()
        .content(),
    );
    const { attributes } = otel.span('invoke_workflow OpenTelemetryAdvisor');
    expect(attributes).toMatchObject({
      tenant: '{"id":7}',
      tags: ['a', 'b'],
      mixed: '[1,"x"]',
      region: 'eu',
      'gen_ai.conversation.id': 'conv-1',
    });
    expect(attributes).not.toHaveProperty('fn');
    expect(attributes).not.toHaveProperty('cyclic');
  });

  it('a throwing attributes callback costs its attributes, not the call', async () => {
    const otel = harness();
    const advisor = otel.advisor({
      attributes: () => {
        throw new Error('bug');
      },
    });
    expect(await run(client(MockChatModel.script([{ text: 'x' }]), [advisor]))).toEqual({
      text: 'x',
    });
    expect(otel.span('invoke_workflow OpenTelemetryAdvisor').status.code).toBe(0);
  });

  it('records no content by default', async () => {
    const otel = harness();
    await run(client(script(), [otel.advisor()], [getTime]));
    const json = JSON.stringify(otel.spans.map((span) => span.attributes));
    expect(json).not.toContain('Paris');
    expect(json).not.toContain('noon');
  });

  it('records content when asked, with secrets in options redacted', async () => {
    const otel = harness();
    const chat = client(script(), [otel.advisor({ recordContent: true })], [getTime])
      .mutate()
      .defaultOptions({ extra: { apiKey: SECRET, headers: { Authorization: `Bearer ${SECRET}` } } })
      .build();
    await run(chat);
    const [first, second] = otel.spans.filter((span) => span.name === 'chat');
    expect(String(first.attributes['gen_ai.input.messages'])).toContain(
      'What time is it in Paris?',
    );
    expect(String(second.attributes['gen_ai.output.messages'])).toContain('It is noon.');
    expect(otel.span('execute_tool getTime').attributes).toMatchObject({
      'gen_ai.tool.call.arguments': '{"city":"Paris"}',
      'gen_ai.tool.call.result': '12:00 in Paris',
    });
    expect(String(first.attributes['rx_advisors.request.options'])).toContain('[redacted]');
    expect(JSON.stringify(otel.spans.map((span) => [span.attributes, span.events]))).not.toContain(
      SECRET,
    );
  });

  it('never records an error message, where an SDK may have put a key', async () => {
    const otel = harness();
    const model = MockChatModel.script([
      {
        error: new ProviderError({
          provider: 'mock',
          message: `401 Incorrect API key: ${SECRET}`,
          status: 401,
        }),
      },
    ]);
    await run(client(model, [otel.advisor({ recordContent: true })]));
    const recorded = JSON.stringify(
      otel.spans.map((span) => [span.attributes, span.events, span.status]),
    );
    expect(recorded).toContain('ProviderError');
    expect(recorded).not.toContain(SECRET);
    expect(recorded).not.toContain('Incorrect API key');
  });

  it('cuts long content to maxAttributeLength', async () => {
    const otel = harness();
    const long = 'word '.repeat(100);
    await run(
      client(MockChatModel.script([{ text: long }]), [
        otel.advisor({ recordContent: true, maxAttributeLength: 64 }),
      ]),
    );
    const output = String(otel.span('chat').attributes['gen_ai.output.messages']);
    expect(output.length).toBeLessThan(100);
    expect(output).toMatch(/…\[truncated\]$/);
  });
});
