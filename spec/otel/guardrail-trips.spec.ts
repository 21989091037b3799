// Issue 29: a `guardrail-tripped` chunk passing the telemetry advisor becomes a span event on
// the call span (guardrail name, stage, withdraw; no user text) and counts in
// `rx_advisors.guardrail.trips`. Real SDK, real GuardrailsAdvisor.
import { lastValueFrom, toArray } from 'rxjs';
import { GuardrailsAdvisor } from '../../lib/guardrails/guardrails-advisor';
import { wordGuardrail } from '../../lib/guardrails/word-guardrail';
import { MockChatModel } from '../../lib/testing/index';
import { client } from './support/fixtures';
import { attributesOf, TelemetryHarness } from './support/telemetry-harness';

const SECRET = 'project zebra';
const MESSAGE = 'I cannot discuss that.';
const codeNames = wordGuardrail({ name: 'code-names', words: [SECRET], message: MESSAGE });

describe('guardrail trips in telemetry', () => {
  let otel: TelemetryHarness;
  beforeEach(() => (otel = new TelemetryHarness()));
  afterEach(() => otel.shutdown());

  const run = async (text: string, prompt: string, stage: 'input' | 'output') => {
    const chat = client(MockChatModel.script([{ text }]), [
      otel.advisor(),
      new GuardrailsAdvisor(stage === 'input' ? { input: [codeNames] } : { output: [codeNames] }),
    ]);
    return lastValueFrom(chat.prompt(prompt).stream().chunks().pipe(toArray()));
  };

  it.each(['output', 'input'] as const)(
    'a trip at the %s stage: one event on the call span, one count; no user text',
    async (stage) => {
      const chunks =
        stage === 'output'
          ? await run(`The plan is ${SECRET} at noon.`, 'What is the plan?', 'output')
          : await run('Fine.', `Tell me about ${SECRET}.`, 'input');
      expect(chunks.some((chunk) => chunk.type === 'guardrail-tripped')).toBe(true);

      const call = otel.span('invoke_workflow OpenTelemetryAdvisor');
      const events = call.events.filter((event) => event.name === 'rx_advisors.guardrail.tripped');
      expect(events).toHaveLength(1);
      expect(events[0].attributes).toEqual({
        'rx_advisors.guardrail.name': 'code-names',
        'rx_advisors.guardrail.stage': stage,
        'rx_advisors.guardrail.withdraw': expect.any(Boolean) as boolean,
      });
      const everything = JSON.stringify(otel.spans.map((span) => [span.attributes, span.events]));
      expect(everything).not.toContain(SECRET);
      expect(everything).not.toContain(MESSAGE);

      const points = await otel.points('rx_advisors.guardrail.trips');
      expect(points).toHaveLength(1);
      expect(points[0].value).toBe(1);
      expect(attributesOf(points[0])).toEqual({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'mock',
        'rx_advisors.guardrail.name': 'code-names',
        'rx_advisors.guardrail.stage': stage,
      });
    },
  );

  it('a call that trips nothing has no event and no count', async () => {
    await run('All is well.', 'How are you?', 'output');
    const call = otel.span('invoke_workflow OpenTelemetryAdvisor');
    expect(call.events).toEqual([]);
    expect(await otel.points('rx_advisors.guardrail.trips')).toEqual([]);
  });
});
