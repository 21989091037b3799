import { firstValueFrom } from 'rxjs';
import {
  ChatClient,
  Order,
  ProviderError,
  RetryAdvisor,
  StructuredOutputValidationAdvisor,
  tool,
  ToolCallingAdvisor,
  type Advisor,
} from '../../lib/index';
import { MockChatModel, type MockRound } from '../../lib/testing/index';

/**
 * `metadata.rounds` is the number of model calls behind a response (docs/concepts.md), a
 * failed one included, wherever recursive advisors sit around each other.
 */
const overloaded = () =>
  new ProviderError({ provider: 'mock', message: 'overloaded', status: 529, retryable: true });

const ping = tool({
  name: 'ping',
  description: 'Answers pong.',
  parameters: { type: 'object', properties: {} },
  execute: () => 'pong',
});

const callPing: MockRound = {
  toolCalls: [{ name: 'ping', arguments: {} }],
  usage: { inputTokens: 1 },
};

/** One call through `advisors`; with `tools`, `ping` is offered (and a tool loop added if none). */
async function respond(script: MockRound[], advisors: Advisor[], { tools = true } = {}) {
  const model = MockChatModel.script(script);
  const builder = ChatClient.builder(model).defaultAdvisors(...advisors);
  if (tools) builder.defaultTools(ping);
  const response = await firstValueFrom(builder.build().prompt('Hi').call().chatResponse());
  return { response, calls: model.calls };
}

const retry = (order?: number) =>
  new RetryAdvisor({
    backoff: { initialDelay: 0 },
    jitter: 0,
    ...(order === undefined ? {} : { order }),
  });

describe('metadata.rounds: model calls, with recursive advisors nested', () => {
  it('tool loop of 2 rounds whose round 2 is retried once inside the loop: 3 model calls', async () => {
    const { response, calls } = await respond(
      [
        callPing,
        { text: 'par', usage: { inputTokens: 1 }, error: overloaded() },
        { text: 'pong!', usage: { inputTokens: 1 } },
      ],
      [new ToolCallingAdvisor(), retry()],
    );
    expect(response.text).toBe('pong!');
    expect(calls).toBe(3);
    expect(response.usage.inputTokens).toBe(3);
    expect(response.metadata.rounds).toBe(3);
  });

  it('a retry around the whole tool loop: the failed attempt counts the model calls it made', async () => {
    const { response, calls } = await respond(
      [callPing, { error: overloaded() }, callPing, { text: 'pong!' }],
      [retry(Order.TOOL_CALLING - 10), new ToolCallingAdvisor()],
    );
    expect(response.text).toBe('pong!');
    expect(calls).toBe(4);
    expect(response.metadata.rounds).toBe(4);
  });

  it('a retry inside structured output validation: every model call of every attempt', async () => {
    const { response, calls } = await respond(
      [{ error: overloaded() }, { text: 'not json' }, { text: '{"ok":true}' }],
      [new StructuredOutputValidationAdvisor({ outputSchema: { type: 'object' } }), retry()],
      { tools: false },
    );
    expect(response.text).toBe('{"ok":true}');
    expect(calls).toBe(3);
    expect(response.metadata.rounds).toBe(3);
  });

  it('an inner retry that gives up, retried by an outer one: every failed call counts', async () => {
    const { response, calls } = await respond(
      [{ error: overloaded() }, { error: overloaded() }, { text: 'ok' }],
      [
        new RetryAdvisor({
          name: 'outer',
          order: Order.TOOL_CALLING - 10,
          maxAttempts: 2,
          backoff: { initialDelay: 0 },
          jitter: 0,
        }),
        new RetryAdvisor({
          name: 'inner',
          maxAttempts: 2,
          backoff: { initialDelay: 0 },
          jitter: 0,
        }),
      ],
      { tools: false },
    );
    expect(response.text).toBe('ok');
    expect(calls).toBe(3);
    expect(response.metadata.rounds).toBe(3);
  });

  it('tool loop, structured output and retry all at their default orders', async () => {
    const { response, calls } = await respond(
      [callPing, { error: overloaded() }, { text: 'nope' }, { text: '{"ok":true}' }],
      [
        new StructuredOutputValidationAdvisor({ outputSchema: { type: 'object' } }),
        new ToolCallingAdvisor(),
        retry(),
      ],
    );
    expect(response.text).toBe('{"ok":true}');
    expect(calls).toBe(4);
    expect(response.metadata.rounds).toBe(4);
  });
});
