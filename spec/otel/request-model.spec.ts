import { OpenAiChatModel } from '../../lib/providers/openai/index';
import { MockChatModel } from '../../lib/testing/index';
import { openAiClient } from '../providers/support/clients';
import { startReplayServer, type ReplayServer } from '../providers/support/replay-server';
import { syntheticChatText } from '../providers/support/synthetic-streams';
import { client, run } from './support/fixtures';
import { TelemetryHarness, useAsyncLocalStorageContext } from './support/telemetry-harness';

// Real HTTP on a busy machine: more than jest's default 5 s per test.
jest.setTimeout(20_000);

describe('gen_ai.request.model whenever the model is known (issue 30, point 14)', () => {
  useAsyncLocalStorageContext();
  let otel: TelemetryHarness;
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());
  beforeEach(() => (otel = new TelemetryHarness()));
  afterEach(() => otel.shutdown());

  it('a real OpenAiChatModel whose model is set on the model, not the call', async () => {
    server.enqueue({ kind: 'sse', body: syntheticChatText('Hi.') });
    const model = new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-on-the-model' });
    expect(await run(client(model, [otel.advisor()]))).toEqual({ text: 'Hi.' });

    const chat = otel.span('chat gpt-on-the-model');
    expect(chat.attributes['gen_ai.request.model']).toBe('gpt-on-the-model');
    expect(otel.span('invoke_workflow OpenTelemetryAdvisor').attributes).toMatchObject({
      'gen_ai.request.model': 'gpt-on-the-model',
    });
  });

  it("the call's model wins over the model's own", async () => {
    const model = MockChatModel.script([{ text: 'Hi' }], { model: 'on-the-model' });
    const chat = client(model, [otel.advisor()]);
    await run(chat.mutate().defaultOptions({ model: 'on-the-call' }).build());
    expect(otel.span('chat on-the-call').attributes['gen_ai.request.model']).toBe('on-the-call');
  });

  it('a MockChatModel given a model name reports it; without one, nothing is made up', async () => {
    await run(
      client(MockChatModel.script([{ text: 'Hi' }], { model: 'scripted' }), [otel.advisor()]),
    );
    expect(otel.span('chat scripted').attributes['gen_ai.request.model']).toBe('scripted');
    await run(client(MockChatModel.script([{ text: 'Hi' }]), [otel.advisor()]));
    expect(otel.span('chat').attributes['gen_ai.request.model']).toBeUndefined();
  });
});
