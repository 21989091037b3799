import { EMPTY, firstValueFrom, lastValueFrom, of, toArray } from 'rxjs';
import {
  ChatClient,
  EvaluationAdvisor,
  EvaluationError,
  InvalidOptionsError,
  Order,
  type EvaluationInput,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

function clientFor(model: MockChatModel, advisor: EvaluationAdvisor) {
  return ChatClient.builder(model).defaultAdvisors(advisor).build();
}

describe('EvaluationAdvisor', () => {
  it('sits outside structured output and the tool loop by default', () => {
    const advisor = new EvaluationAdvisor({ judge: () => ({ pass: true }) });
    expect(advisor.order).toBe(Order.HIGHEST_PRECEDENCE + 240);
    expect(advisor.order).toBeLessThan(Order.STRUCTURED_OUTPUT);
  });

  it('re-runs with the judge feedback until an answer passes', async () => {
    const model = MockChatModel.script([
      { text: 'A long rambling answer', usage: { inputTokens: 5, outputTokens: 5 } },
      { text: 'Short.', usage: { inputTokens: 9, outputTokens: 1 } },
    ]);
    const inputs: EvaluationInput[] = [];
    const judge = (input: EvaluationInput) => {
      inputs.push(input);
      return input.answer.length < 10
        ? { pass: true, score: 9 }
        : { pass: false, score: 3, feedback: 'Be shorter.' };
    };
    const chunks = await lastValueFrom(
      clientFor(model, new EvaluationAdvisor({ judge }))
        .prompt('Explain RxJS')
        .stream()
        .chunks()
        .pipe(toArray()),
    );
    expect(chunks.find((c) => c.type === 'retry')).toEqual({
      type: 'retry',
      attempt: 2,
      reason: 'rejected by the judge (score 3)',
      advisor: 'evaluation',
    });
    expect(inputs.map((i) => [i.attempt, i.question, i.answer])).toEqual([
      [1, 'Explain RxJS', 'A long rambling answer'],
      [2, 'Explain RxJS', 'Short.'],
    ]);
    const second = model.requests[1].messages;
    expect(second[0]).toEqual({ role: 'user', content: 'Explain RxJS' });
    expect(second[1]).toEqual({ role: 'assistant', content: 'A long rambling answer' });
    expect(second[2].role).toBe('user');
    expect(second[2].content).toContain('(score 3)');
    expect(second[2].content).toContain('Feedback: Be shorter.');
    expect(chunks.find((c) => c.type === 'usage')).toEqual({
      type: 'usage',
      usage: { inputTokens: 14, outputTokens: 6, totalTokens: 20 },
    });
  });

  it('accepts Promise and Observable verdicts and adds the judge usage', async () => {
    const model = MockChatModel.script([
      { text: 'a', usage: { inputTokens: 1, outputTokens: 1 } },
      { text: 'b' },
    ]);
    let calls = 0;
    const advisor = new EvaluationAdvisor({
      judge: () =>
        ++calls === 1
          ? Promise.resolve({
              pass: false,
              usage: { inputTokens: 100, outputTokens: 10, totalTokens: 110 },
            })
          : of({ pass: true }),
    });
    const response = await firstValueFrom(
      clientFor(model, advisor).prompt('q').call().chatResponse(),
    );
    expect(response.text).toBe('b');
    expect(response.usage).toEqual({ inputTokens: 101, outputTokens: 11, totalTokens: 112 });
  });

  it("returns the last answer when attempts run out, or fails with EvaluationError on 'error'", async () => {
    const never = () => ({ pass: false, score: 1, feedback: 'no' });
    const model = MockChatModel.script([{ text: 'a' }, { text: 'b' }]);
    await expect(
      firstValueFrom(
        clientFor(model, new EvaluationAdvisor({ judge: never, maxAttempts: 2 }))
          .prompt('q')
          .call()
          .content(),
      ),
    ).resolves.toBe('b');

    const strict = MockChatModel.script([{ text: 'a' }, { text: 'b' }]);
    const error = await firstValueFrom(
      clientFor(
        strict,
        new EvaluationAdvisor({ judge: never, maxAttempts: 2, onExhausted: 'error' }),
      )
        .prompt('q')
        .call()
        .content(),
    ).catch((e: unknown) => e);
    expect(EvaluationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      attempts: 2,
      feedback: ['no', 'no'],
      lastText: 'b',
      lastScore: 1,
    });
  });

  it('uses another ChatClient as the judge, with its answer validated as JSON', async () => {
    const judgeModel = MockChatModel.script([
      {
        text: '{"pass": false, "score": 2, "feedback": "Mention operators."}',
        usage: { inputTokens: 50, outputTokens: 10 },
      },
      { text: 'I think it is fine', usage: { inputTokens: 60, outputTokens: 5 } },
      {
        text: '{"pass": true, "score": 8, "feedback": ""}',
        usage: { inputTokens: 70, outputTokens: 10 },
      },
    ]);
    const model = MockChatModel.script([
      { text: 'RxJS is a library.', usage: { inputTokens: 5, outputTokens: 5 } },
      { text: 'RxJS composes streams with operators.', usage: { inputTokens: 9, outputTokens: 6 } },
    ]);
    const advisor = new EvaluationAdvisor({ judge: ChatClient.create(judgeModel) });
    const response = await firstValueFrom(
      clientFor(model, advisor).prompt('What is RxJS?').call().chatResponse(),
    );
    expect(response.text).toBe('RxJS composes streams with operators.');
    expect(judgeModel.calls).toBe(3); // the second verdict was not JSON and was retried
    expect(judgeModel.requests[0].messages.at(-1)!.content).toBe(
      'Question:\nWhat is RxJS?\n\nAnswer:\nRxJS is a library.',
    );
    expect(model.requests[1].messages.at(-1)!.content).toContain('Mention operators.');
    expect(response.usage.inputTokens).toBe(5 + 9 + 50 + 60 + 70);
  });

  it('fails the stream when the judge throws', async () => {
    const model = MockChatModel.script([{ text: 'a' }]);
    const advisor = new EvaluationAdvisor({
      judge: () => {
        throw new Error('judge crashed');
      },
    });
    await expect(
      lastValueFrom(clientFor(model, advisor).prompt('q').call().content()),
    ).rejects.toThrow('judge crashed');
  });

  it('uses a custom feedback message', async () => {
    const model = MockChatModel.script([{ text: 'a' }, { text: 'b' }]);
    const advisor = new EvaluationAdvisor({
      judge: ({ attempt }) => ({ pass: attempt > 1, feedback: 'more' }),
      feedbackMessage: (result) => `Try again: ${result.feedback}`,
    });
    await lastValueFrom(clientFor(model, advisor).prompt('q').call().content());
    expect(model.requests[1].messages.at(-1)).toEqual({
      role: 'user',
      content: 'Try again: more',
    });
  });

  it('passes a model error through without judging', async () => {
    const model = MockChatModel.script([{ text: 'par', error: 'socket closed' }]);
    let judged = 0;
    const advisor = new EvaluationAdvisor({ judge: () => ({ pass: ++judged > 0 }) });
    await expect(
      lastValueFrom(clientFor(model, advisor).prompt('q').call().content()),
    ).rejects.toThrow('socket closed');
    expect(judged).toBe(0);
  });

  it('judges an empty model stream as an empty answer', async () => {
    const model = MockChatModel.respond((_request, call) => (call === 1 ? EMPTY : { text: 'now' }));
    const answers: string[] = [];
    const advisor = new EvaluationAdvisor({
      judge: ({ answer }) => {
        answers.push(answer);
        return { pass: answer !== '' };
      },
    });
    await expect(
      firstValueFrom(clientFor(model, advisor).prompt('q').call().content()),
    ).resolves.toBe('now');
    expect(answers).toEqual(['', 'now']);
  });

  it('keeps attempts and feedback per subscription', async () => {
    const model = MockChatModel.respond((_request, call) => ({
      text: call % 2 === 1 ? 'bad' : 'good',
    }));
    const advisor = new EvaluationAdvisor({
      judge: ({ answer }) => ({ pass: answer === 'good', feedback: 'again' }),
      maxAttempts: 2,
      onExhausted: 'error',
    });
    const content$ = clientFor(model, advisor).prompt('q').call().content();
    await expect(firstValueFrom(content$)).resolves.toBe('good');
    await expect(firstValueFrom(content$)).resolves.toBe('good');
    expect(model.calls).toBe(4);
  });

  it('rejects bad options', () => {
    expect(() => new EvaluationAdvisor({ judge: 'x' as never })).toThrow(InvalidOptionsError);
    expect(() => new EvaluationAdvisor({ judge: () => ({ pass: true }), maxAttempts: 0 })).toThrow(
      /maxAttempts/,
    );
    expect(() => new EvaluationAdvisor(undefined as never)).toThrow(/judge/);
    const judge = () => ({ pass: true });
    expect(() => new EvaluationAdvisor({ judge, onExhausted: 'never' as never })).toThrow(
      /onExhausted/,
    );
    expect(() => new EvaluationAdvisor({ judge, feedbackMessage: 'x' as never })).toThrow(
      /feedbackMessage.*function/,
    );
    expect(() => new EvaluationAdvisor({ judge, name: '' })).toThrow(/name.*non-empty string/);
    expect(() => new EvaluationAdvisor({ judge, order: Number.NaN })).toThrow(/order/);
  });
});
