import { firstValueFrom, lastValueFrom, Observable } from 'rxjs';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import type { ChatModel } from '../../lib/core/chat-model';
import type { ChatRequest } from '../../lib/core/chat-request';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { TooManyToolCallsError } from '../../lib/errors/too-many-tool-calls-error';
import { executeToolCalls } from '../../lib/tools/execute-tool-calls';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import type { ToolCallingAdvisorOptions } from '../../lib/tools/tool-calling-advisor-options';
import { tool } from '../../lib/tools/tool-fn';

/** A synchronous model: round 1 asks for `count` calls of `ping`, round 2 answers. */
function manyCallsModel(count: number): ChatModel & { requests: ChatRequest[] } {
  const model = {
    provider: 'many',
    requests: [] as ChatRequest[],
    stream: (request: ChatRequest) =>
      new Observable<ChatChunk>((subscriber) => {
        model.requests.push(request);
        if (model.requests.length === 1) {
          for (let i = 0; i < count; i++) {
            subscriber.next({ type: 'tool-call', id: `c${i}`, name: 'ping', arguments: '{}' });
          }
          subscriber.next({ type: 'finish', reason: 'tool-calls' });
        } else {
          subscriber.next({ type: 'text-delta', text: 'done' });
          subscriber.next({ type: 'finish', reason: 'stop' });
        }
        subscriber.complete();
      }),
  };
  return model;
}

function pingTool(runs: { count: number }) {
  return tool({
    name: 'ping',
    description: '',
    parameters: {},
    execute: () => {
      runs.count++;
      return 'pong';
    },
  });
}

function answer(
  model: ChatModel,
  runs: { count: number },
  options: ToolCallingAdvisorOptions = {},
) {
  const client = ChatClient.builder(model)
    .defaultTools(pingTool(runs))
    .defaultAdvisors(new ToolCallingAdvisor(options))
    .build();
  return lastValueFrom(client.prompt('go').call().content());
}

describe('tool calls per round', () => {
  it('fails a round past the default of 128 calls with TooManyToolCallsError, no tool run', async () => {
    const runs = { count: 0 };
    const error: unknown = await answer(manyCallsModel(129), runs).catch((e: unknown) => e);
    expect(TooManyToolCallsError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ calls: 129, limit: 128, round: 1 });
    expect(runs.count).toBe(0);
  });

  it('runs a round of exactly the limit', async () => {
    const runs = { count: 0 };
    expect(await answer(manyCallsModel(3), runs, { maxToolCallsPerRound: 3 })).toBe('done');
    expect(runs.count).toBe(3);
  });

  it('runs 130,000 calls in one round when allowed, without overflowing the stack', async () => {
    const runs = { count: 0 };
    const model = manyCallsModel(130_000);
    const text = await answer(model, runs, { maxToolCallsPerRound: 200_000 });
    expect(text).toBe('done');
    expect(runs.count).toBe(130_000);
    expect(model.requests[1].messages).toHaveLength(1 + 1 + 130_000);
  });

  it('applies the same limit in executeToolCalls', async () => {
    const runs = { count: 0 };
    const toolCalls = Array.from({ length: 5 }, (_, i) => ({
      id: `${i}`,
      name: 'ping',
      arguments: '{}',
    }));
    const results$ = executeToolCalls({
      toolCalls,
      tools: [pingTool(runs)],
      maxToolCallsPerRound: 4,
    });
    await expect(firstValueFrom(results$)).rejects.toBeInstanceOf(TooManyToolCallsError);
    expect(runs.count).toBe(0);
  });

  it('rejects a limit that is not a positive integer', () => {
    expect(() => new ToolCallingAdvisor({ maxToolCallsPerRound: 0 })).toThrow(InvalidOptionsError);
    expect(() => executeToolCalls({ toolCalls: [], tools: [], maxToolCallsPerRound: 1.5 })).toThrow(
      InvalidOptionsError,
    );
  });
});
