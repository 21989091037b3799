import { delay, isObservable, lastValueFrom, map, NEVER, of, timer, toArray } from 'rxjs';
import { advisor } from '../../lib/advisor-api/advisor';
import { CallInterceptors } from '../../lib/advisor-api/call-interceptors';
import { ContextKeys } from '../../lib/advisor-api/context-keys';
import { Order } from '../../lib/advisor-api/order';
import type {
  ToolCallInterceptor,
  ToolCallInvocation,
} from '../../lib/advisor-api/tool-call-interceptor';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import type { ToolMessage } from '../../lib/core/message';
import type { Tool, ToolContext } from '../../lib/core/tool';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { tool } from '../../lib/tools/tool-fn';
import { chunksOf, textOf, timeTool } from './support/fixtures';

/** An advisor outside the loop that registers `interceptor` for the call. */
function registering(interceptor: ToolCallInterceptor, key: unknown = 'test') {
  return advisor({
    name: 'registers',
    order: Order.HIGHEST_PRECEDENCE,
    before: (request) => {
      CallInterceptors.of(request.context).onToolCall(key, interceptor);
      return request;
    },
  });
}

const twoCities = () =>
  MockChatModel.script([
    {
      toolCalls: [
        { name: 'getTime', arguments: { city: 'Paris' } },
        { name: 'getTime', arguments: { city: 'Rome' } },
      ],
    },
    { text: 'Done.' },
  ]);

function client(model: MockChatModel, tools: Tool[], ...advisors: ReturnType<typeof advisor>[]) {
  return ChatClient.builder(model)
    .defaultTools(...tools)
    .defaultAdvisors(...advisors, new ToolCallingAdvisor())
    .build();
}

const toolResults = (model: MockChatModel, call = 1): ToolMessage[] =>
  model.requests[call].messages.filter((m): m is ToolMessage => m.role === 'tool');

describe('tool-call interceptors (the tool-execution seam)', () => {
  it('sees each call before it runs, with the tool, the round, the values and the context', async () => {
    const seen: ToolCallInvocation[] = [];
    const model = twoCities();
    const chat = client(
      model,
      [timeTool()],
      registering({
        intercept: (invocation, proceed) => {
          seen.push(invocation);
          return proceed(invocation.call);
        },
      }),
    );
    await lastValueFrom(chat.prompt('Time?').toolContext({ userId: 7 }).call().content());
    expect(seen.map((i) => [i.call.name, i.tool?.name, i.round, i.values])).toEqual([
      ['getTime', 'getTime', 1, { userId: 7 }],
      ['getTime', 'getTime', 1, { userId: 7 }],
    ]);
    expect(seen[0].context).toBeInstanceOf(Map);
    expect(seen[0].context.get(ContextKeys.CALL_INTERCEPTORS)).toBeInstanceOf(CallInterceptors);
  });

  it('runs a rewritten call, denies one without running it, and maps a result', async () => {
    const cities: string[] = [];
    const model = twoCities();
    const chat = client(
      model,
      [timeTool(cities)],
      registering({
        intercept: ({ call }, proceed) => {
          if (call.arguments.includes('Rome')) {
            return {
              role: 'tool',
              toolCallId: call.id,
              name: call.name,
              content: 'refused: Rome is off limits',
              isError: true,
            };
          }
          const outcome = proceed({ ...call, arguments: '{"city":"Lyon"}' });
          if (isObservable(outcome)) throw new Error('a synchronous tool answers at once');
          return { ...outcome, content: outcome.content.toUpperCase() };
        },
      }),
    );
    expect(await lastValueFrom(chat.prompt('Time?').call().content())).toBe('Done.');
    expect(cities).toEqual(['Lyon']);
    expect(toolResults(model).map((m) => [m.content, m.isError])).toEqual([
      ['12:00 IN LYON', undefined],
      ['refused: Rome is off limits', true],
    ]);
  });

  it('maps the results of asynchronous tools as they come', async () => {
    const slow = tool({
      name: 'getTime',
      description: 'The time, later',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      execute: ({ city }) => of(`noon in ${String(city)}`).pipe(delay(1)),
    });
    const model = twoCities();
    const chat = client(
      model,
      [slow],
      registering({
        intercept: ({ call }, proceed) => {
          const outcome = proceed(call);
          if (!isObservable(outcome)) return outcome;
          return outcome.pipe(
            map((event) => ('role' in event ? { ...event, content: `[${event.content}]` } : event)),
          );
        },
      }),
    );
    await lastValueFrom(chat.prompt('Time?').call().content());
    expect(toolResults(model).map((m) => m.content)).toEqual(['[noon in Paris]', '[noon in Rome]']);
  });

  it("sees and maps a lone long-running tool's preliminary results, as the stream shows them", async () => {
    const progress = tool({
      name: 'progress',
      description: 'Reports as it goes',
      parameters: { type: 'object', properties: {} },
      execute: () => of('one', 'two', 'three'),
    });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'progress', arguments: {} }] },
      { text: 'Done.' },
    ]);
    const chat = ChatClient.builder(model)
      .defaultTools(progress)
      .defaultAdvisors(
        registering({
          intercept: ({ call }, proceed) => {
            const outcome = proceed(call);
            if (!isObservable(outcome)) return outcome;
            return outcome.pipe(
              map((event) =>
                'role' in event ? event : { ...event, content: `[${String(event.content)}]` },
              ),
            );
          },
        }),
        new ToolCallingAdvisor({ emitToolEvents: true }),
      )
      .build();
    const chunks = await lastValueFrom(chat.prompt('Go').stream().chunks().pipe(toArray()));
    const results = chunks.filter((chunk) => chunk.type === 'tool-result');
    // The interceptor sits between the tool and the stream: every preliminary passes it.
    expect(results.map((chunk) => [chunk.content, chunk.preliminary === true])).toEqual([
      ['[one]', true],
      ['[two]', true],
      ['[three]', true],
      ['three', false],
    ]);
  });

  it('fails the call (whatever onToolError says) when an interceptor throws, and cancels the running tools', async () => {
    const signals: AbortSignal[] = [];
    const hang = tool({
      name: 'hang',
      description: 'Never answers',
      parameters: {},
      execute: (_args, { signal }) => {
        signals.push(signal);
        return NEVER;
      },
    });
    const model = MockChatModel.script([
      {
        toolCalls: [
          { name: 'hang', arguments: {} },
          { name: 'getTime', arguments: { city: 'Paris' } },
        ],
      },
      { text: 'never' },
    ]);
    const budget = new Error('budget exceeded');
    const chat = client(
      model,
      [hang, timeTool()],
      registering({
        intercept: ({ call }, proceed) => {
          if (call.name === 'getTime') throw budget;
          return proceed(call);
        },
      }),
    );
    await expect(lastValueFrom(chat.prompt('Go').call().content())).rejects.toBe(budget);
    expect(signals.map((s) => s.aborted)).toEqual([true]);
    expect(model.requests).toHaveLength(1);
  });

  it('an Observable outcome that errors fails the call too', async () => {
    const model = twoCities();
    const chat = client(
      model,
      [timeTool()],
      registering({
        intercept: () =>
          timer(1).pipe(
            map(() => ({}) as ToolMessage),
            map(() => {
              throw new Error('journal unavailable');
            }),
          ),
      }),
    );
    await expect(lastValueFrom(chat.prompt('Go').call().content())).rejects.toThrow(
      'journal unavailable',
    );
  });

  it('sends a call through the approval flow when an interceptor requires it', async () => {
    const cities: string[] = [];
    const model = twoCities();
    const chat = client(
      model,
      [timeTool(cities)],
      registering({ requiresApproval: ({ call }) => call.arguments.includes('Rome') }),
    );
    const chunks = await chunksOf(chat.prompt('Time?').stream().chunks());
    const requests = chunks.filter((c) => c.type === 'tool-approval-request');
    expect(requests).toMatchObject([{ toolCall: { name: 'getTime' } }]);
    expect(JSON.stringify(requests[0])).toContain('Rome');
    expect(chunks.at(-1)).toEqual<ChatChunk>({ type: 'finish', reason: 'awaiting-approval' });
    expect(cities).toEqual([]);
  });

  it('uses a decision an interceptor knows instead of asking, and tells interceptors of decisions taken', async () => {
    const asked: string[] = [];
    const told: [string, boolean][] = [];
    const cities: string[] = [];
    const model = twoCities();
    const chat = ChatClient.builder(model)
      .defaultTools(timeTool(cities))
      .defaultAdvisors(
        registering({
          requiresApproval: () => true,
          knownDecision: ({ call }) =>
            call.arguments.includes('Rome') ? { approved: false, reason: 'replayed' } : undefined,
          decided: ({ call }, decision) => told.push([call.arguments, decision.approved]),
        }),
        new ToolCallingAdvisor({
          approve: ({ toolCall }) => {
            asked.push(toolCall.arguments);
            return true;
          },
        }),
      )
      .build();
    expect(await lastValueFrom(chat.prompt('Time?').call().content())).toBe('Done.');
    expect(asked).toEqual(['{"city":"Paris"}']);
    expect(told).toEqual([['{"city":"Paris"}', true]]);
    expect(cities).toEqual(['Paris']);
    expect(toolResults(model).map((m) => m.content)).toEqual([
      '12:00 in Paris',
      'denied by the user: replayed',
    ]);
  });

  it('wraps execute with the validated arguments, inside the call-level interceptors and outside the deprecated key', async () => {
    const log: string[] = [];
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }] },
      { text: 'Done.' },
    ]);
    const legacy = advisor({
      name: 'legacy',
      order: Order.HIGHEST_PRECEDENCE + 1,
      before: (request) => {
        request.context.set(ContextKeys.TOOL_CALL_INTERCEPTOR, (_: unknown, go: () => unknown) => {
          log.push('legacy');
          return go();
        });
        return request;
      },
    });
    const chat = client(
      model,
      [timeTool()],
      registering({
        intercept: ({ call }, proceed) => {
          log.push('call');
          return proceed(call);
        },
        execute: ({ args }, proceed) => {
          log.push(`execute ${JSON.stringify(args)}`);
          return `<${String(proceed())}>`;
        },
      }),
      legacy,
    );
    await lastValueFrom(chat.prompt('Time?').call().content());
    expect(log).toEqual(['call', 'execute {"city":"Paris"}', 'legacy']);
    expect(toolResults(model)[0].content).toBe('<12:00 in Paris>');
  });

  it('gives tools the call context and adds the usage they report to the run', async () => {
    const contexts: (ReadonlyMap<string, unknown> | undefined)[] = [];
    const nested = tool({
      name: 'nested',
      description: 'Asks another model',
      parameters: {},
      execute: (_args, context: ToolContext) => {
        contexts.push(context.callContext);
        context.reportUsage?.({ inputTokens: 100, outputTokens: 10, totalTokens: 110 });
        return 'ok';
      },
    });
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'nested' }], usage: { inputTokens: 1, outputTokens: 2 } },
      { text: 'Done.', usage: { inputTokens: 3, outputTokens: 4 } },
    ]);
    const response = await lastValueFrom(
      client(model, [nested]).prompt('Go').advisorParams({ tenant: 't1' }).call().chatResponse(),
    );
    expect(contexts[0]?.get('tenant')).toBe('t1');
    expect(response.usage).toMatchObject({ inputTokens: 104, outputTokens: 16 });
    expect(textOf([{ type: 'text-delta', text: response.text }])).toBe('Done.');
  });
});

describe('tool({ idempotent })', () => {
  it('declares a tool safe to run again', () => {
    const read = tool({
      name: 'read',
      description: 'Reads',
      parameters: {},
      execute: () => 'x',
      idempotent: true,
    });
    expect(read.idempotent).toBe(true);
    expect(timeTool().idempotent).toBeUndefined();
  });

  it('refuses a value that is not a boolean', () => {
    expect(() =>
      tool({
        name: 'read',
        description: 'Reads',
        parameters: {},
        execute: () => 'x',
        idempotent: 'yes' as never,
      }),
    ).toThrow(InvalidOptionsError);
  });
});
