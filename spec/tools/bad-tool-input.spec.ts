import { firstValueFrom, throwError } from 'rxjs';
import { ChatClient } from '../../lib/client/chat-client';
import type { ToolMessage } from '../../lib/core/message';
import { ToolArgumentsError } from '../../lib/errors/tool-arguments-error';
import { ToolExecutionError } from '../../lib/errors/tool-execution-error';
import { ToolNotFoundError } from '../../lib/errors/tool-not-found-error';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import type { MockToolCall } from '../../lib/testing/mock-round';
import type { Tool } from '../../lib/core/tool.js';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { tool } from '../../lib/tools/tool-fn';
import { ToolRegistry } from '../../lib/tools/tool-registry';
import { timeTool } from './support/fixtures';

const RECOVERED = 'Sorry, I could not get the time.';

/** Runs one bad call then a final answer; returns the tool result of round 2 and the answer. */
async function badRound(call: MockToolCall, tools: Tool[], loop = new ToolCallingAdvisor()) {
  const model = MockChatModel.script([{ toolCalls: [call] }, { text: RECOVERED }]);
  const response = await firstValueFrom(
    ChatClient.builder(model)
      .defaultTools(...tools)
      .defaultAdvisors(loop)
      .build()
      .prompt('time?')
      .call()
      .chatResponse(),
  );
  const results = model.requests[1].messages.filter((m): m is ToolMessage => m.role === 'tool');
  expect(results).toHaveLength(1);
  return { result: results[0], response, model };
}

describe('bad tool input: an error result the model sees, then the loop recovers', () => {
  it('malformed JSON arguments', async () => {
    const cities: string[] = [];
    const { result, response } = await badRound(
      { id: 'c1', name: 'getTime', arguments: '{"city": "Par' },
      [timeTool(cities)],
    );
    expect(result).toMatchObject({ toolCallId: 'c1', name: 'getTime', isError: true });
    expect(result.content).toMatch(/^The arguments for tool "getTime" are not valid JSON: /);
    expect(cities).toEqual([]);
    expect(response.text).toBe(RECOVERED);
  });

  it('arguments that violate the schema: execute never runs', async () => {
    const cities: string[] = [];
    const { result, response } = await badRound(
      { name: 'getTime', arguments: { city: 42, extra: true } },
      [timeTool(cities)],
    );
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      'The arguments for tool "getTime" do not match its parameters schema: ' +
        '/extra: is not allowed (additionalProperties is false); /city: must be string. ' +
        'Call the tool again with a JSON object that matches its parameters schema.',
    );
    expect(cities).toEqual([]);
    expect(response.text).toBe(RECOVERED);
  });

  it('an unknown tool', async () => {
    const { result, response } = await badRound({ name: 'getWeather' }, [timeTool()]);
    expect(result).toMatchObject({ name: 'getWeather', isError: true });
    expect(result.content).toBe(
      'There is no tool named "getWeather" here. Use one of the available tools: "getTime".',
    );
    expect(response.text).toBe(RECOVERED);
  });

  it('a tool that exists but was not offered in this call', async () => {
    const ran: string[] = [];
    const secret = tool({
      name: 'deleteAll',
      description: 'Registered, never offered',
      parameters: {},
      execute: () => ran.push('deleteAll'),
    });
    const registry = new ToolRegistry({ tools: [secret, timeTool()] });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'deleteAll' }] },
      { text: RECOVERED },
    ]);
    const client = ChatClient.builder(model).defaultToolRegistry(registry).build();
    const response = await firstValueFrom(
      client.prompt('time?').toolNames('getTime').call().chatResponse(),
    );
    expect(ran).toEqual([]);
    const result = model.requests[1].messages.find((m) => m.role === 'tool') as ToolMessage;
    expect(result.isError).toBe(true);
    expect(result.content).toContain('no tool named "deleteAll"');
    expect(response.text).toBe(RECOVERED);
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('database down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('database down'))],
    ['errors its Observable', () => throwError(() => new Error('database down'))],
  ])('a tool that %s', async (_label, execute) => {
    const failing = tool({ name: 'lookup', description: 'Fails', parameters: {}, execute });
    const { result, response } = await badRound({ name: 'lookup' }, [failing]);
    expect(result).toMatchObject({
      name: 'lookup',
      isError: true,
      content: 'The tool "lookup" failed: database down',
    });
    expect(response.text).toBe(RECOVERED);
  });

  // A tool that never completes (timeout) is in marble-tests/tools, in virtual time.

  it('an empty arguments string is treated as {}', async () => {
    const seen: unknown[] = [];
    const now = tool({
      name: 'now',
      description: 'Now',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
      execute: (args) => {
        seen.push(args);
        return 'noon';
      },
    });
    const { result } = await badRound({ name: 'now', arguments: '' }, [now]);
    expect(seen).toEqual([{}]);
    expect(result).toEqual({ role: 'tool', toolCallId: 'call_1_0', name: 'now', content: 'noon' });
  });

  describe("with onToolError: 'throw'", () => {
    async function failure(call: MockToolCall, tools: Tool[]) {
      const model = MockChatModel.script([{ toolCalls: [call] }, { text: RECOVERED }]);
      const error = await firstValueFrom(
        ChatClient.builder(model)
          .defaultTools(...tools)
          .defaultAdvisors(new ToolCallingAdvisor({ onToolError: 'throw' }))
          .build()
          .prompt('x')
          .call()
          .content(),
      ).catch((e: unknown) => e);
      expect(model.calls).toBe(1);
      return error;
    }

    it('fails the stream with ToolArgumentsError', async () => {
      const error = await failure({ name: 'getTime', arguments: '{' }, [timeTool()]);
      expect(ToolArgumentsError.isInstance(error)).toBe(true);
    });

    it('fails the stream with ToolNotFoundError', async () => {
      const error = await failure({ name: 'nope' }, [timeTool()]);
      expect(ToolNotFoundError.isInstance(error)).toBe(true);
      expect((error as ToolNotFoundError).available).toEqual(['getTime']);
    });

    it('fails the stream with ToolExecutionError whose cause is the tool error', async () => {
      const boom = new Error('boom');
      const failing = tool({
        name: 'lookup',
        description: '',
        parameters: {},
        execute: () => {
          throw boom;
        },
      });
      const error = await failure({ id: 'k', name: 'lookup' }, [failing]);
      expect(ToolExecutionError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ toolName: 'lookup', toolCallId: 'k', cause: boom });
    });

    it('fails the stream with ToolExecutionError when the tool rejects later', async () => {
      const boom = new Error('boom later');
      const failing = tool({
        name: 'lookup',
        description: '',
        parameters: {},
        execute: () => Promise.reject(boom),
      });
      const error = await failure({ id: 'k', name: 'lookup' }, [failing]);
      expect(ToolExecutionError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ toolName: 'lookup', toolCallId: 'k', cause: boom });
    });
  });
});
