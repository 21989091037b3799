import { lastValueFrom, of, toArray } from 'rxjs';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain.js';
import type { ChatChunk } from '../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../lib/core/chat-request.js';
import type { ToolMessage } from '../../lib/core/message.js';
import type { Tool } from '../../lib/core/tool.js';
import { LoopHookError } from '../../lib/errors/loop-hook-error.js';
import { MockChatModel } from '../../lib/testing/mock-chat-model.js';
import type { ToolCallRepair, ToolCallRepairRequest } from '../../lib/tools/repair-tool-call.js';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor.js';
import type { ToolCallingAdvisorOptions } from '../../lib/tools/tool-calling-advisor-options.js';
import { tool } from '../../lib/tools/tool-fn.js';

const getWeather: Tool = tool({
  name: 'getWeather',
  description: 'The weather in a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  execute: ({ city }: { city: string }) => `Sunny in ${city}`,
});

/** One round with the given call, then an answer; returns the model and the outbound chunks. */
async function run(
  call: { name: string; arguments: Record<string, unknown> },
  options: ToolCallingAdvisorOptions,
) {
  const model = MockChatModel.script([
    { toolCalls: [call], usage: { inputTokens: 10, outputTokens: 5 } },
    { text: 'Done.', usage: { inputTokens: 20, outputTokens: 7 } },
  ]);
  const chain = createAdvisorChain({ advisors: [new ToolCallingAdvisor(options)], model });
  const request = ChatRequest.create({
    messages: [{ role: 'user', content: 'Weather?' }],
    tools: [getWeather],
  });
  const chunks = await lastValueFrom(chain.next(request).pipe(toArray()));
  const results = model.requests[1]?.messages.filter((m): m is ToolMessage => m.role === 'tool');
  return { model, chunks, results };
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('ToolCallingAdvisor repairToolCall', () => {
  it('repairs an unknown tool name; the tool runs and answers under the original call id', async () => {
    const seen: ToolCallRepairRequest[] = [];
    const repairToolCall: ToolCallRepair = (request) => {
      seen.push(request);
      return { ...request.call, name: 'getWeather' };
    };
    const { results, model } = await run(
      { name: 'get_weather', arguments: { city: 'Paris' } },
      { repairToolCall },
    );
    expect(results).toEqual([
      expect.objectContaining({ name: 'getWeather', content: 'Sunny in Paris' }),
    ]);
    const callId = model.requests[1].messages.find((m) => m.role === 'assistant')!.toolCalls![0].id;
    expect(results[0].toolCallId).toBe(callId);
    expect(seen).toHaveLength(1);
    expect(seen[0].error.name).toBe('ToolNotFoundError');
    expect(seen[0].tool).toBeUndefined();
    expect(seen[0].tools.map((t) => t.name)).toEqual(['getWeather']);
  });

  it('repairs arguments the schema refuses, asynchronously, counting the repair usage', async () => {
    const repairToolCall: ToolCallRepair = async ({ call, error, tool: target, reportUsage }) => {
      expect(error.name).toBe('ToolArgumentsError');
      expect(target?.name).toBe('getWeather');
      reportUsage({ inputTokens: 100, outputTokens: 3, totalTokens: 103 });
      await Promise.resolve();
      return { ...call, arguments: '{"city":"Oslo"}' };
    };
    const { results, chunks } = await run(
      { name: 'getWeather', arguments: { town: 'Oslo' } },
      { repairToolCall },
    );
    expect(results?.[0]).toMatchObject({ content: 'Sunny in Oslo' });
    const usage = chunks.find(
      (c): c is Extract<ChatChunk, { type: 'usage' }> => c.type === 'usage',
    );
    expect(usage?.usage).toMatchObject({ inputTokens: 130, outputTokens: 15 });
  });

  it('leaves the error result for the model when the repair declines (an Observable of undefined)', async () => {
    const { results } = await run(
      { name: 'nope', arguments: {} },
      { repairToolCall: () => of(undefined) },
    );
    expect(results?.[0]).toMatchObject({ isError: true });
    expect(results?.[0].content).toContain('nope');
  });

  it('stops repairing after maxRepairAttempts; the last call answers with its error', async () => {
    let attempts = 0;
    const { results } = await run(
      { name: 'nope', arguments: {} },
      {
        maxRepairAttempts: 2,
        repairToolCall: ({ call }) => {
          attempts++;
          return { ...call, name: `${call.name}!` };
        },
      },
    );
    expect(attempts).toBe(2);
    expect(results?.[0]).toMatchObject({ isError: true, name: 'nope!!' });
  });

  it('does not call the repair for a call that runs as it is', async () => {
    const repairToolCall = jest.fn<ReturnType<ToolCallRepair>, Parameters<ToolCallRepair>>();
    const { results } = await run(
      { name: 'getWeather', arguments: { city: 'Rome' } },
      { repairToolCall },
    );
    expect(results?.[0].content).toBe('Sunny in Rome');
    expect(repairToolCall).not.toHaveBeenCalled();
  });

  it('fails the loop with a LoopHookError naming repairToolCall when it throws', async () => {
    const error = await failureOf(
      run(
        { name: 'nope', arguments: {} },
        {
          repairToolCall: () => {
            throw new Error('repair broke');
          },
        },
      ),
    );
    expect(LoopHookError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ hook: 'repairToolCall', round: 1, failure: 'threw' });
  });

  it('refuses a repaired call without a name and arguments, saying what was expected', async () => {
    const error = await failureOf(
      run(
        { name: 'nope', arguments: {} },
        { repairToolCall: (() => ({ name: 'getWeather' })) as unknown as ToolCallRepair },
      ),
    );
    expect(error).toMatchObject({ hook: 'repairToolCall', failure: 'invalid-return' });
    expect((error as Error).message).toContain('arguments: string (JSON)');
  });
});
