import type { Histogram } from '@opentelemetry/sdk-metrics';
import { ProviderError, tool } from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { client, getTime, run } from './support/fixtures';
import { TelemetryHarness } from './support/telemetry-harness';

const histogram = (value: unknown) => value as Histogram;

describe('OpenTelemetryAdvisor metrics (the metrics SDK, in-memory exporter)', () => {
  let otel: TelemetryHarness;
  beforeEach(() => (otel = new TelemetryHarness()));
  afterEach(() => otel.shutdown());

  const twoRoundCall = () =>
    run(
      client(
        MockChatModel.script([
          {
            toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }],
            usage: { inputTokens: 10, outputTokens: 5 },
          },
          { text: 'noon', usage: { inputTokens: 20, outputTokens: 7 } },
        ]),
        [otel.advisor()],
        [getTime],
      ),
    );

  it('records gen_ai.client.token.usage per model call, input and output apart', async () => {
    await twoRoundCall();
    const points = await otel.points('gen_ai.client.token.usage');
    const byType = Object.fromEntries(
      points.map((point) => [point.attributes['gen_ai.token.type'], histogram(point.value)]),
    );
    expect(byType['input']).toMatchObject({ count: 2, sum: 30 });
    expect(byType['output']).toMatchObject({ count: 2, sum: 12 });
    expect(points[0].attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'mock',
      'gen_ai.response.model': 'mock-model',
    });
  });

  it('records gen_ai.client.operation.duration and time to first chunk per model call', async () => {
    await twoRoundCall();
    const [duration] = await otel.points('gen_ai.client.operation.duration');
    expect(histogram(duration.value).count).toBe(2);
    expect(histogram(duration.value).sum).toBeGreaterThanOrEqual(0);
    const [firstChunk] = await otel.points('gen_ai.client.operation.time_to_first_chunk');
    expect(histogram(firstChunk.value).count).toBe(2);
  });

  it('records tool durations, tool errors and rounds per call', async () => {
    await twoRoundCall();
    const [tools] = await otel.points('rx_advisors.tool.duration');
    expect(histogram(tools.value).count).toBe(1);
    expect(tools.attributes).toMatchObject({ 'gen_ai.tool.name': 'getTime' });
    expect(await otel.points('rx_advisors.tool.errors')).toEqual([]);
    const [rounds] = await otel.points('rx_advisors.call.rounds');
    expect(histogram(rounds.value)).toMatchObject({ count: 1, sum: 2 });
  });

  it('counts a failing tool and a failing model call by error.type', async () => {
    const broken = tool({
      name: 'getTime',
      description: 'Fails',
      parameters: { type: 'object', properties: {} },
      execute: () => {
        throw new RangeError('no clock');
      },
    });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'getTime', arguments: {} }] },
      { error: new ProviderError({ provider: 'mock', message: 'down', status: 500 }) },
    ]);
    await run(client(model, [otel.advisor()], [broken]));
    const [errors] = await otel.points('rx_advisors.tool.errors');
    expect(errors).toMatchObject({ value: 1, attributes: { 'error.type': 'RangeError' } });
    const durations = await otel.points('gen_ai.client.operation.duration');
    expect(durations.map((point) => point.attributes['error.type'])).toEqual([
      undefined,
      'ProviderError',
    ]);
  });

  it('records nothing for a call with telemetry turned off', async () => {
    const { TelemetryParams } = await import('../../lib/otel/index');
    const { lastValueFrom } = await import('rxjs');
    const chat = client(
      MockChatModel.script([{ text: 'x', usage: { inputTokens: 1, outputTokens: 1 } }]),
      [otel.advisor()],
    );
    await lastValueFrom(
      chat
        .prompt('x')
        .advisorParams({ [TelemetryParams.ENABLED]: false })
        .call()
        .content(),
    );
    expect(await otel.points('gen_ai.client.token.usage')).toEqual([]);
  });
});
