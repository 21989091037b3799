import { from, lastValueFrom, map, Observable, tap, toArray } from 'rxjs';
import { advisor } from '../../lib/advisor-api/advisor';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain';
import { CallInterceptors } from '../../lib/advisor-api/call-interceptors';
import { ContextKeys } from '../../lib/advisor-api/context-keys';
import type { ModelCallInterceptor } from '../../lib/advisor-api/model-call-interceptor';
import { callDepth, parentCallOf } from '../../lib/advisor-api/parent-call';
import { recursiveAdvisor } from '../../lib/advisor-api/recursive-advisor';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import { ChatRequest } from '../../lib/core/chat-request';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import { Order } from '../../lib/advisor-api/order';
import { ChatClient } from '../../lib/client/chat-client';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import { tool } from '../../lib/tools/tool-fn';

/** An interceptor that logs `name` around the call and tags every text delta. */
function tagging(name: string, log: string[]): ModelCallInterceptor {
  return (call, proceed) => {
    log.push(`${name}:in`);
    return proceed(call.request).pipe(
      map((chunk): ChatChunk =>
        chunk.type === 'text-delta' ? { ...chunk, text: `${name}(${chunk.text})` } : chunk,
      ),
      tap({ complete: () => log.push(`${name}:out`) }),
    );
  };
}

const texts = (chunks$: Observable<ChatChunk>): Promise<string[]> =>
  lastValueFrom(
    chunks$.pipe(
      toArray(),
      map((chunks) => chunks.flatMap((c) => (c.type === 'text-delta' ? [c.text] : []))),
    ),
  );

const request = (context = new Map<string, unknown>()): ChatRequest =>
  ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }], context });

describe('CallInterceptors (the model-call seam)', () => {
  it('calls the model directly when nothing is registered', async () => {
    const model = MockChatModel.script([{ text: 'Hello' }]);
    expect(CallInterceptors.modelCallInterceptor(new Map())).toBeUndefined();
    expect(await texts(createAdvisorChain({ advisors: [], model }).next(request()))).toEqual([
      'Hello',
    ]);
  });

  it('composes in registration order: the first registered is the outermost', async () => {
    const log: string[] = [];
    const register = (name: string) =>
      advisor({
        name,
        order: name === 'outer' ? 0 : 1,
        before: (r) => {
          CallInterceptors.of(r.context).onModelCall(name, tagging(name, log));
          return r;
        },
      });
    const model = MockChatModel.script([{ text: 'Hello' }]);
    const chain = createAdvisorChain({ advisors: [register('inner'), register('outer')], model });
    expect(await texts(chain.next(request()))).toEqual(['outer(inner(Hello))']);
    expect(log).toEqual(['outer:in', 'inner:in', 'inner:out', 'outer:out']);
  });

  it('lets an interceptor change the request or answer without calling the model', async () => {
    const model = MockChatModel.script([{ text: 'from the model' }]);
    const context = new Map<string, unknown>();
    const interceptors = CallInterceptors.of(context);
    interceptors.onModelCall('swap', (call, proceed) =>
      proceed(call.request.withOptions({ temperature: 0 })),
    );
    const chain = createAdvisorChain({ advisors: [], model });
    await texts(chain.next(request(context)));
    expect(model.requests[0].options.temperature).toBe(0);

    const replayed: ChatChunk[] = [
      { type: 'text-delta', text: 'replayed' },
      { type: 'finish', reason: 'stop' },
    ];
    interceptors.onModelCall('swap', () => from(replayed));
    expect(await texts(chain.next(request(context)))).toEqual(['replayed']);
    expect(model.requests).toHaveLength(1);
  });

  it('replaces an entry registered again under the same key, in its first place', async () => {
    const log: string[] = [];
    const context = new Map<string, unknown>();
    const registry = CallInterceptors.of(context);
    registry.onModelCall('a', tagging('a1', log));
    registry.onModelCall('b', tagging('b', log));
    registry.onModelCall('a', tagging('a2', log));
    const model = MockChatModel.script([{ text: 'x' }]);
    expect(await texts(createAdvisorChain({ advisors: [], model }).next(request(context)))).toEqual(
      ['a2(b(x))'],
    );
    registry.remove('a');
    expect(CallInterceptors.of(context)).toBe(registry);
  });

  it('registers once per call when a recursive advisor re-runs the chain', async () => {
    let calls = 0;
    const counter = advisor({
      name: 'counter',
      order: 10,
      before: (r) => {
        CallInterceptors.of(r.context).onModelCall('counter', (call, proceed) => {
          calls++;
          return proceed(call.request);
        });
        return r;
      },
    });
    const twice = recursiveAdvisor({
      name: 'twice',
      order: 0,
      next: ({ attempt, request: sent }) => (attempt < 2 ? sent : undefined),
    });
    const model = MockChatModel.script([{ text: 'one' }, { text: 'two' }]);
    await lastValueFrom(createAdvisorChain({ advisors: [twice, counter], model }).next(request()));
    expect(model.requests).toHaveLength(2);
    // One interceptor, two model calls: not two interceptors on the second call.
    expect(calls).toBe(2);
  });

  it('applies the inherited interceptors of the calls a call is nested in, outermost first', async () => {
    const log: string[] = [];
    const grandparent = new Map<string, unknown>();
    const parent = new Map<string, unknown>([[ContextKeys.PARENT_CALL, grandparent]]);
    const child = new Map<string, unknown>([[ContextKeys.PARENT_CALL, parent]]);
    CallInterceptors.of(grandparent)
      .onModelCall('budget', tagging('budget', log), { inherit: true })
      .onModelCall('journal', tagging('journal', log));
    CallInterceptors.of(parent).onModelCall('p', tagging('p', log), { inherit: true });
    CallInterceptors.of(child).onModelCall('own', tagging('own', log));
    const model = MockChatModel.script([{ text: 'x' }]);
    const out = await texts(createAdvisorChain({ advisors: [], model }).next(request(child)));
    expect(out).toEqual(['budget(p(own(x)))']);
    expect(CallInterceptors.toolCallInterceptors(child)).toEqual([]);
  });

  it('stops at a chain of parents that comes back on itself', () => {
    const a = new Map<string, unknown>();
    const b = new Map<string, unknown>([[ContextKeys.PARENT_CALL, a]]);
    a.set(ContextKeys.PARENT_CALL, b);
    CallInterceptors.of(a).onToolCall('x', {}, { inherit: true });
    expect(CallInterceptors.toolCallInterceptors(b)).toHaveLength(1);
    expect(callDepth(b)).toBe(1);
    expect(parentCallOf(b)).toBe(a);
    expect(parentCallOf(new Map())).toBeUndefined();
    expect(callDepth(new Map())).toBe(0);
  });

  it('unsubscribing from the call unsubscribes from the model through the interceptors', () => {
    let unsubscribed = false;
    const model = {
      provider: 'test',
      stream: () =>
        new Observable<ChatChunk>(() => () => {
          unsubscribed = true;
        }),
    };
    const context = new Map<string, unknown>();
    CallInterceptors.of(context).onModelCall('pass', (call, proceed) => proceed(call.request));
    const subscription = createAdvisorChain({ advisors: [], model })
      .next(request(context))
      .subscribe();
    expect(unsubscribed).toBe(false);
    subscription.unsubscribe();
    expect(unsubscribed).toBe(true);
  });
});

describe('CallInterceptors lookups', () => {
  it('return the same list and the same composed interceptor until the registry changes', () => {
    const context = new Map<string, unknown>();
    const registry = CallInterceptors.of(context);
    const log: string[] = [];
    registry
      .onToolCall('a', {})
      .onModelCall('a', tagging('a', log))
      .onModelCall('b', tagging('b', log));
    const tools = CallInterceptors.toolCallInterceptors(context);
    const model = CallInterceptors.modelCallInterceptor(context);
    // Read per round and per model call: nothing is allocated while nothing changes.
    expect(CallInterceptors.toolCallInterceptors(context)).toBe(tools);
    expect(CallInterceptors.modelCallInterceptor(context)).toBe(model);
    expect(Object.isFrozen(tools)).toBe(true);

    registry.onToolCall('b', {});
    const changed = CallInterceptors.toolCallInterceptors(context);
    expect(changed).not.toBe(tools);
    expect(changed).toHaveLength(2);
    expect(tools).toHaveLength(1);
    registry.remove('a');
    expect(CallInterceptors.toolCallInterceptors(context)).toHaveLength(1);
    expect(CallInterceptors.modelCallInterceptor(context)).not.toBe(model);
    registry.remove('b');
    expect(CallInterceptors.toolCallInterceptors(context)).toHaveLength(0);
    expect(CallInterceptors.modelCallInterceptor(context)).toBeUndefined();
  });
});

describe('ToolExecuteInvocation.onAbort (the execute seam)', () => {
  const never = (read: { signal?: boolean } = {}) =>
    tool({
      name: 'getTime',
      description: 'Never answers',
      parameters: { type: 'object', properties: {} },
      execute: (_args, context) => {
        if (read.signal === true) void context.signal;
        return new Promise<string>(() => undefined);
      },
    });
  const listening = (told: string[]) =>
    advisor({
      name: 'listening',
      order: Order.HIGHEST_PRECEDENCE,
      before: (r) => {
        CallInterceptors.of(r.context).onToolCall('listen', {
          execute: (invocation, proceed) => {
            invocation.onAbort?.(() => told.push(invocation.call.name));
            return proceed();
          },
        });
        return r;
      },
    });
  const toolRound = () =>
    MockChatModel.script([{ toolCalls: [{ name: 'getTime', arguments: {} }] }, { text: 'done' }]);

  it('tells the interceptor once when the call is unsubscribed while a Promise tool runs', async () => {
    const told: string[] = [];
    const chat = ChatClient.builder(toolRound())
      .defaultTools(never())
      .defaultAdvisors(listening(told), new ToolCallingAdvisor())
      .build();
    const subscription = chat.prompt('Hi').stream().chunks().subscribe();
    await new Promise((resolve) => setImmediate(resolve));
    expect(told).toEqual([]);
    subscription.unsubscribe();
    expect(told).toEqual(['getTime']);
  });

  it('tells it when the tool runs past its time limit, after the signal of the tool fired', async () => {
    const told: string[] = [];
    let aborted = false;
    const watched = tool({
      name: 'getTime',
      description: 'Never answers',
      parameters: { type: 'object', properties: {} },
      execute: (_args, { signal }) => {
        signal.addEventListener('abort', () => {
          aborted = true;
          told.push(`signal (told: ${told.length})`);
        });
        return new Promise<string>(() => undefined);
      },
    });
    const model = toolRound();
    const chat = ChatClient.builder(model)
      .defaultTools(watched)
      .defaultAdvisors(listening(told), new ToolCallingAdvisor({ toolTimeout: 5 }))
      .build();
    await lastValueFrom(chat.prompt('Hi').stream().chunks());
    expect(aborted).toBe(true);
    expect(told).toEqual(['signal (told: 0)', 'getTime']);
  });

  it('says nothing when the tool settles', async () => {
    const told: string[] = [];
    const quick = tool({
      name: 'getTime',
      description: 'Answers',
      parameters: { type: 'object', properties: {} },
      execute: () => Promise.resolve('noon'),
    });
    const chat = ChatClient.builder(toolRound())
      .defaultTools(quick)
      .defaultAdvisors(listening(told), new ToolCallingAdvisor())
      .build();
    await lastValueFrom(chat.prompt('Hi').stream().chunks());
    expect(told).toEqual([]);
  });
});
