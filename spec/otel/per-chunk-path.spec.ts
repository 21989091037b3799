import { defer, from, map, type Observable } from 'rxjs';
import { advisor, type ChatChunk, type ChatModel } from '../../lib/index';
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
});
