import { defer, from, map, Observable, type Subscriber } from 'rxjs';
import { lastValueFrom } from 'rxjs';
import {
  advisor,
  ToolNotFoundError,
  type ChatChunk,
  type ChatClient,
  type ChatModel,
} from '../../lib/index';
import { client, run } from './support/fixtures';
import { TelemetryHarness } from './support/telemetry-harness';

/** A model whose stream starts with text deltas (no metadata chunk first). */
function textFirstModel(
  chunks: ChatChunk[] = [
    { type: 'text-delta', text: 'It is ' },
    { type: 'text-delta', text: 'noon.' },
    { type: 'usage', usage: { inputTokens: 4, outputTokens: 2, totalTokens: 6 } },
    { type: 'finish', reason: 'stop' },
  ],
): ChatModel {
  return { provider: 'raw', stream: (): Observable<ChatChunk> => defer(() => from(chunks)) };
}

const passThrough = advisor({ name: 'pass', after: map((chunk: ChatChunk) => chunk) });

// The per-chunk path skips the watchers for text deltas (docs/performance.md): what they
// must still see is the first chunk, even a text delta, and every other chunk after it.
describe('OpenTelemetryAdvisor per-chunk path', () => {
  let otel: TelemetryHarness;
  beforeEach(() => (otel = new TelemetryHarness()));
  afterEach(() => otel.shutdown());

  it('times a first chunk that is a text delta, and sees the chunks after the deltas', async () => {
    await expect(run(client(textFirstModel(), [otel.advisor(), passThrough]))).resolves.toEqual({
      text: 'It is noon.',
    });
    const chat = otel.span('chat');
    expect(chat.attributes['gen_ai.response.time_to_first_chunk']).toEqual(expect.any(Number));
    expect(chat.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 4,
      'gen_ai.usage.output_tokens': 2,
      'gen_ai.response.finish_reasons': ['stop'],
    });
    const [firstChunk] = await otel.points('gen_ai.client.operation.time_to_first_chunk');
    expect(firstChunk).toBeDefined();
    const call = otel.spans.find((span) => span.name.startsWith('invoke_workflow'));
    expect(call?.attributes).toMatchObject({
      'gen_ai.usage.output_tokens': 2,
      'gen_ai.response.finish_reasons': ['stop'],
    });
  });

  it('times the first chunk of a stream of text deltas only', async () => {
    const model = textFirstModel([{ type: 'text-delta', text: 'Hi' }]);
    await expect(run(client(model, [otel.advisor(), passThrough]))).resolves.toEqual({
      text: 'Hi',
    });
    const chat = otel.span('chat');
    expect(chat.attributes['gen_ai.response.time_to_first_chunk']).toEqual(expect.any(Number));
  });

  it('records every text delta, the first included, when content is recorded', async () => {
    await run(client(textFirstModel(), [otel.advisor({ recordContent: true }), passThrough]));
    const output = String(otel.span('chat').attributes['gen_ai.output.messages']);
    expect(output).toContain('It is noon.');
  });

  // Issue 32 (docs/performance.md, "telemetry, third pass"): with `stream().content()` the
  // telemetry rides on content()'s own subscriber, the no-tools guard's check too, so the
  // model is subscribed by the same subscriber as with telemetry off: no layer per chunk.
  it('adds no subscriber between the model and content() (the call and the model call ride on it)', async () => {
    const seen: Subscriber<ChatChunk>[] = [];
    const model: ChatModel = {
      provider: 'raw',
      stream: () =>
        new Observable<ChatChunk>((subscriber) => {
          seen.push(subscriber);
          subscriber.next({ type: 'text-delta', text: 'Hi' });
          subscriber.next({
            type: 'usage',
            usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
          });
          subscriber.next({ type: 'finish', reason: 'stop' });
          subscriber.complete();
        }),
    };
    await run(client(model, []));
    await run(client(model, [otel.advisor()]));
    const [off, on] = seen;
    expect(on?.constructor).toBe(off?.constructor);
    const chat = otel.span('chat');
    expect(chat.attributes['gen_ai.response.time_to_first_chunk']).toEqual(expect.any(Number));
    expect(chat.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(otel.span('invoke_workflow OpenTelemetryAdvisor').attributes).toMatchObject({
      'gen_ai.usage.output_tokens': 1,
      'rx_advisors.rounds': 1,
    });
    expect(await otel.points('gen_ai.client.operation.time_to_first_chunk')).toHaveLength(1);
  });

  it.each([
    [
      'riding on content()',
      (chat: ChatClient): Observable<unknown> => chat.prompt('Hi').stream().content(),
    ],
    [
      'with a layer of its own (chunks())',
      (chat: ChatClient) => chat.prompt('Hi').stream().chunks(),
    ],
  ])('fails both spans when the no-tools guard refuses a tool call, %s', async (_, start) => {
    const model = textFirstModel([
      { type: 'text-delta', text: 'Let me check.' },
      { type: 'tool-call', id: 'c1', name: 'getTime', arguments: '{}' },
      { type: 'finish', reason: 'tool-calls' },
    ]);
    const error = await lastValueFrom(start(client(model, [otel.advisor()]))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ToolNotFoundError);
    const call = otel.span('invoke_workflow OpenTelemetryAdvisor');
    expect(call.attributes['error.type']).toBe('ToolNotFoundError');
    expect(otel.span('chat').ended).toBe(true);
  });
});
