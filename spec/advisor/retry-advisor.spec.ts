import { EMPTY, firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import {
  ChatClient,
  InvalidOptionsError,
  Order,
  ProviderError,
  RetryAdvisor,
  tool,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

const overloaded = () =>
  new ProviderError({ provider: 'mock', message: 'overloaded', status: 529, retryable: true });
const badRequest = () =>
  new ProviderError({ provider: 'mock', message: 'bad request', status: 400 });

function clientFor(
  model: MockChatModel,
  advisor = new RetryAdvisor({ backoff: { initialDelay: 0 } }),
) {
  return ChatClient.builder(model).defaultAdvisors(advisor).build();
}

describe('RetryAdvisor', () => {
  it('sits next to the model by default', () => {
    const advisor = new RetryAdvisor();
    expect(advisor.order).toBe(Order.LOWEST_PRECEDENCE - 1000);
    expect(advisor.order).toBeGreaterThan(Order.TOOL_CALLING);
    expect(advisor.name).toBe('retry');
  });

  it('retries a retryable ProviderError and sums usage over attempts', async () => {
    const model = MockChatModel.script([
      { text: 'Hal', usage: { inputTokens: 4, outputTokens: 1 }, error: overloaded() },
      { text: 'Hello', usage: { inputTokens: 4, outputTokens: 2 } },
    ]);
    const chunks = await lastValueFrom(
      clientFor(model).prompt('Hi').stream().chunks().pipe(toArray()),
    );
    expect(chunks.find((c) => c.type === 'retry')).toEqual({
      type: 'retry',
      attempt: 2,
      reason: 'mock: overloaded',
      advisor: 'retry',
    });
    const response = await firstValueFrom(
      clientFor(
        MockChatModel.script([
          { usage: { inputTokens: 4, outputTokens: 1 }, error: overloaded() },
          { text: 'Hello', usage: { inputTokens: 4, outputTokens: 2 } },
        ]),
      )
        .prompt('Hi')
        .call()
        .chatResponse(),
    );
    expect(response.text).toBe('Hello');
    expect(response.usage).toEqual({ inputTokens: 8, outputTokens: 3, totalTokens: 11 });
    expect(response.metadata.rounds).toBe(2);
    expect(model.requests[1]).toBe(model.requests[0]);
  });

  it('does not retry an error that is not retryable', async () => {
    const model = MockChatModel.script([{ error: badRequest() }, { text: 'never' }]);
    await expect(lastValueFrom(clientFor(model).prompt('Hi').call().content())).rejects.toThrow(
      'bad request',
    );
    expect(model.calls).toBe(1);
  });

  it('re-throws the last error when attempts run out', async () => {
    const model = MockChatModel.script([{ error: overloaded() }], { onExhausted: 'repeat-last' });
    const error = await lastValueFrom(
      clientFor(model, new RetryAdvisor({ maxAttempts: 4, backoff: () => 0 }))
        .prompt('Hi')
        .call()
        .content(),
    ).catch((e: unknown) => e);
    expect(ProviderError.isInstance(error) && error.status).toBe(529);
    expect(model.calls).toBe(4);
  });

  it('retries an empty answer, unless retryOnEmpty is false; an empty last answer is returned', async () => {
    const model = MockChatModel.script([{ text: '' }, { text: '  ' }, { text: 'finally' }]);
    await expect(firstValueFrom(clientFor(model).prompt('Hi').call().content())).resolves.toBe(
      'finally',
    );
    expect(model.calls).toBe(3);

    const once = MockChatModel.script([{ text: '' }, { text: 'x' }]);
    const noEmpty = new RetryAdvisor({ retryOnEmpty: false, backoff: () => 0 });
    await expect(
      firstValueFrom(clientFor(once, noEmpty).prompt('Hi').call().content()),
    ).resolves.toBe('');
    expect(once.calls).toBe(1);

    const always = MockChatModel.script([{ text: '' }], { onExhausted: 'repeat-last' });
    await expect(firstValueFrom(clientFor(always).prompt('Hi').call().content())).resolves.toBe('');
    expect(always.calls).toBe(3);
  });

  it('does not count an answer with tool calls as empty', async () => {
    const model = MockChatModel.script([{ toolCalls: [{ name: 'lookup', arguments: {} }] }]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new RetryAdvisor({ backoff: () => 0 }))
      .defaultAdvisorParams({ toolCallingAdvisorAutoRegister: false })
      .build();
    const response = await firstValueFrom(client.prompt('Hi').call().chatResponse());
    expect(response.message.toolCalls).toHaveLength(1);
    expect(model.calls).toBe(1);
  });

  it('uses a custom isRetryable, and fails the stream when it throws', async () => {
    const model = MockChatModel.script([{ error: new Error('socket hang up') }, { text: 'ok' }]);
    const custom = new RetryAdvisor({
      isRetryable: (e) => (e as Error).message.includes('socket'),
      backoff: () => 0,
    });
    await expect(
      firstValueFrom(clientFor(model, custom).prompt('Hi').call().content()),
    ).resolves.toBe('ok');

    const crashing = new RetryAdvisor({
      isRetryable: () => {
        throw new Error('predicate crashed');
      },
    });
    const again = MockChatModel.script([{ error: overloaded() }]);
    await expect(
      lastValueFrom(clientFor(again, crashing).prompt('Hi').call().content()),
    ).rejects.toThrow('predicate crashed');
  });

  it('inside the tool loop (its default order) repeats only the failed model call, not the tools', async () => {
    const executed: string[] = [];
    const getTime = tool({
      name: 'getTime',
      description: 'The time in a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
      } as const,
      execute: ({ city }) => {
        executed.push(city);
        return `12:00 in ${city}`;
      },
    });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }] },
      { text: 'It is', error: overloaded() },
      { text: 'It is noon.' },
    ]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new RetryAdvisor({ backoff: () => 0 }))
      .defaultTools(getTime)
      .build();
    await expect(firstValueFrom(client.prompt('Time in Paris?').call().content())).resolves.toBe(
      'It is noon.',
    );
    expect(executed).toEqual(['Paris']);
    expect(model.calls).toBe(3);
    expect(model.requests[2].messages).toEqual(model.requests[1].messages);
  });

  it('retries an empty model stream, and keeps attempts per subscription', async () => {
    const model = MockChatModel.respond((_request, call) =>
      call % 2 === 1 ? EMPTY : { text: 'ok' },
    );
    const content$ = clientFor(model, new RetryAdvisor({ maxAttempts: 2, backoff: () => 0 }))
      .prompt('Hi')
      .call()
      .content();
    await expect(firstValueFrom(content$)).resolves.toBe('ok');
    await expect(firstValueFrom(content$)).resolves.toBe('ok');
    expect(model.calls).toBe(4);
  });

  it('rejects bad options', () => {
    expect(() => new RetryAdvisor({ maxAttempts: 0 })).toThrow(InvalidOptionsError);
    expect(() => new RetryAdvisor({ backoff: { initialDelay: -1 } })).toThrow(
      /backoff.initialDelay/,
    );
  });

  it.each([
    [{ jitter: -0.1 }, /jitter.*from 0 to 1/],
    [{ jitter: 1.5 }, /jitter.*from 0 to 1/],
    [{ jitter: Number.NaN }, /jitter/],
    [{ maxDelay: -1 }, /maxDelay.*at least 0/],
    [{ random: 0.5 as unknown as () => number }, /random.*function/],
    [{ respectRetryAfter: 'yes' as unknown as boolean }, /respectRetryAfter/],
    [{ retryOnEmpty: 'yes' as unknown as boolean }, /retryOnEmpty/],
    [{ isRetryable: true as unknown as () => boolean }, /isRetryable.*function/],
    [{ backoff: 5 as unknown as () => number }, /backoff.*function/],
    [{ backoff: { factor: -1 } }, /backoff\.factor.*at least 0/],
    [{ name: '' }, /name.*non-empty string/],
    [{ order: Number.NaN }, /order.*see Order/],
  ])('rejects %p up front with an InvalidOptionsError naming the option', (options, message) => {
    expect(() => new RetryAdvisor(options)).toThrow(InvalidOptionsError);
    expect(() => new RetryAdvisor(options)).toThrow(message);
  });

  it('fails the stream with an InvalidOptionsError when a backoff function returns a bad delay', async () => {
    const model = MockChatModel.script([{ error: overloaded() }, { text: 'never' }]);
    const advisor = new RetryAdvisor({ backoff: () => Number.NaN });
    const error = await lastValueFrom(
      clientFor(model, advisor).prompt('Hi').call().content(),
    ).catch((e: unknown) => e);
    expect(InvalidOptionsError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/backoff/);
    expect(model.calls).toBe(1);
  });

  it('keeps the ProviderError with its retryAfter when the Retry-After exceeds maxDelay', async () => {
    const limited = new ProviderError({
      provider: 'mock',
      message: 'rate limited',
      status: 429,
      retryable: true,
      retryAfter: 90_000,
    });
    const model = MockChatModel.script([{ error: limited }, { text: 'never' }]);
    const error = await lastValueFrom(
      clientFor(model, new RetryAdvisor()).prompt('Hi').call().content(),
    ).catch((e: unknown) => e);
    expect(error).toBe(limited);
    expect(limited.retryAfter).toBe(90_000);
    expect(model.calls).toBe(1);
  });
});
