import { lastValueFrom } from 'rxjs';
import { ChatClient, InvalidOptionsError } from '../../lib/index';
import { GuardrailsAdvisor, modelJudgeGuardrail } from '../../lib/guardrails/index';
import { MockChatModel } from '../../lib/testing/index';

function ask(judgeAnswer: string, options: { failOpen?: boolean } = {}) {
  const judgeModel = MockChatModel.script([{ text: judgeAnswer }, { text: judgeAnswer }]);
  const judge = ChatClient.builder(judgeModel).build();
  const model = MockChatModel.script([{ text: 'Here is how.' }]);
  const guarded = ChatClient.builder(model)
    .defaultAdvisors(
      new GuardrailsAdvisor({
        input: [modelJudgeGuardrail({ client: judge, message: 'Not allowed.', ...options })],
      }),
    )
    .build();
  return {
    judgeModel,
    model,
    answer: lastValueFrom(guarded.prompt('How do I reset my password?').call().content()),
  };
}

describe('modelJudgeGuardrail', () => {
  it('lets the answer through when the judge allows the request', async () => {
    const { answer, judgeModel } = ask('{"allowed": true, "reason": "benign"}');
    expect(await answer).toBe('Here is how.');
    const [judgeRequest] = judgeModel.requests;
    expect(judgeRequest?.lastUserText).toContain('How do I reset my password?');
  });

  it('trips with its message when the judge refuses', async () => {
    const { answer } = ask('{"allowed": false, "reason": "account takeover"}');
    expect(await answer).toBe('Not allowed.');
  });

  it('fails closed on an answer that is not a verdict, or open with failOpen', async () => {
    expect(await ask('I think it is fine').answer).toBe('Not allowed.');
    expect(await ask('I think it is fine', { failOpen: true }).answer).toBe('Here is how.');
  });

  it('validates its options', () => {
    expect(() => modelJudgeGuardrail({ client: {} as ChatClient })).toThrow(InvalidOptionsError);
    const judge = ChatClient.builder(MockChatModel.script([])).build();
    expect(() => modelJudgeGuardrail({ client: judge, timeout: 0 })).toThrow(InvalidOptionsError);
  });
});
