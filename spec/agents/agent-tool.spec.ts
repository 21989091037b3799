import { lastValueFrom, tap, toArray, type Observable } from 'rxjs';
import { agentChunkOf } from '../../lib/agents/agent-chunk';
import { agentPathOf } from '../../lib/agents/agent-frame';
import { agentTool } from '../../lib/agents/agent-tool';
import { advisor } from '../../lib/advisor-api/advisor';
import { CallInterceptors } from '../../lib/advisor-api/call-interceptors';
import { Order } from '../../lib/advisor-api/order';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk, ToolResultChunk } from '../../lib/core/chat-chunk';
import type { ToolMessage } from '../../lib/core/message';
import type { Tool } from '../../lib/core/tool';
import { AgentCycleError } from '../../lib/errors/agent-cycle-error';
import { AgentDepthError } from '../../lib/errors/agent-depth-error';
import { AgentRunError } from '../../lib/errors/agent-run-error';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import type { MockRound } from '../../lib/testing/mock-round';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';

const chunksOf = (chunks$: Observable<ChatChunk>): Promise<ChatChunk[]> =>
  lastValueFrom(chunks$.pipe(toArray()));

/** A client over a scripted model, its loop sending tool events outbound. */
function agent(rounds: MockRound[], tools: Tool[] = [], emitToolEvents = true) {
  const model = MockChatModel.script(rounds);
  const client = ChatClient.builder(model)
    .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents }))
    .defaultTools(...tools)
    .build();
  return { model, client };
}

const delegate = (name: string, task: string): MockRound => ({
  toolCalls: [{ name, arguments: { task } }],
  usage: { inputTokens: 10, outputTokens: 2 },
});

const toolResultsSeen = (model: MockChatModel, call: number): ToolMessage[] =>
  model.requests[call].messages.filter((m): m is ToolMessage => m.role === 'tool');

const nestedOf = (chunks: readonly ChatChunk[]) =>
  chunks.map(agentChunkOf).filter((nested) => nested !== undefined);

describe('agentTool: a ChatClient as a tool', () => {
  it('runs the child on the task; the parent model sees its answer, the stream its chunks', async () => {
    const child = agent([
      { text: 'Paris has 2.1M people.', usage: { inputTokens: 5, outputTokens: 6 } },
    ]);
    const research = agentTool({ client: child.client, name: 'research', description: 'Research' });
    const parent = agent(
      [
        delegate('research', 'Population of Paris?'),
        { text: 'About 2.1M.', usage: { inputTokens: 20, outputTokens: 3 } },
      ],
      [research],
    );

    const chunks = await chunksOf(parent.client.prompt('How many in Paris?').stream().chunks());

    expect(child.model.requests[0].messages).toEqual([
      { role: 'user', content: 'Population of Paris?' },
    ]);
    expect(toolResultsSeen(parent.model, 1)).toEqual([
      { role: 'tool', toolCallId: 'call_1_0', name: 'research', content: 'Paris has 2.1M people.' },
    ]);
    const nested = nestedOf(chunks);
    expect(nested.every((n) => n.agentPath.join('/') === 'research')).toBe(true);
    expect(
      nested.flatMap((n) => (n.chunk.type === 'text-delta' ? [n.chunk.text] : [])).join(''),
    ).toBe('Paris has 2.1M people.');
    expect(nested.at(-1)?.chunk).toEqual({ type: 'finish', reason: 'stop' });
    // The child's usage is added to the parent's: 10+5+20 in, 2+6+3 out.
    const usage = chunks.filter((c) => c.type === 'usage');
    expect(usage).toEqual([
      { type: 'usage', usage: { inputTokens: 35, outputTokens: 11, totalTokens: 46 } },
    ]);
    // The final tool-result (not preliminary) carries the answer.
    const results = chunks.filter(
      (c): c is ToolResultChunk => c.type === 'tool-result' && c.preliminary !== true,
    );
    expect(results).toEqual([
      { type: 'tool-result', id: 'call_1_0', name: 'research', content: 'Paris has 2.1M people.' },
    ]);
  });

  it('sends nothing of the child outbound without emitToolEvents, and still sums usage', async () => {
    const child = agent([{ text: 'Child.', usage: { inputTokens: 1, outputTokens: 1 } }]);
    const parent = agent(
      [delegate('child', 'go'), { text: 'Done.', usage: { inputTokens: 1, outputTokens: 1 } }],
      [agentTool({ client: child.client, name: 'child', description: 'A child' })],
      false,
    );
    const chunks = await chunksOf(parent.client.prompt('Hi').stream().chunks());
    expect(chunks.filter((c) => c.type === 'tool-result')).toEqual([]);
    expect(chunks.find((c) => c.type === 'usage')).toEqual({
      type: 'usage',
      usage: { inputTokens: 12, outputTokens: 4, totalTokens: 16 },
    });
  });

  it('flattens a grandchild into the top stream with its full path', async () => {
    const web = agent([{ text: 'web says hi' }]);
    const research = agent(
      [delegate('web', 'search'), { text: 'research done' }],
      [agentTool({ client: web.client, name: 'web', description: 'Web search' })],
    );
    const planner = agent(
      [delegate('research', 'look'), { text: 'plan done' }],
      [agentTool({ client: research.client, name: 'research', description: 'Research' })],
    );
    const chunks = await chunksOf(planner.client.prompt('Plan').stream().chunks());
    const texts = nestedOf(chunks).flatMap((n) =>
      n.chunk.type === 'text-delta' ? [`${n.agentPath.join('/')}:${n.chunk.text}`] : [],
    );
    expect(texts.join('')).toBe(
      'research/web:webresearch/web: saysresearch/web: hiresearch:researchresearch: done',
    );
    // Grandchild progress arrives before the child's answer, in order.
    expect(toolResultsSeen(research.model, 1)[0].content).toBe('web says hi');
    expect(toolResultsSeen(planner.model, 1)[0].content).toBe('research done');
  });

  it("carries the child's chunk as it is (the same object, no text to encode), down two levels", async () => {
    // The grandchild's chunks, recorded by its outermost advisor as they leave its chain.
    const webSent: ChatChunk[] = [];
    const web = ChatClient.builder(MockChatModel.script([{ text: 'web says hi' }]))
      .defaultAdvisors(
        advisor({
          name: 'record',
          order: Order.HIGHEST_PRECEDENCE,
          after: tap((chunk: ChatChunk) => webSent.push(chunk)),
        }),
      )
      .build();
    const research = agent(
      [delegate('web', 'search'), { text: 'done' }],
      [agentTool({ client: web, name: 'web', description: 'Web search' })],
    );
    const planner = agent(
      [delegate('research', 'look'), { text: 'plan done' }],
      [agentTool({ client: research.client, name: 'research', description: 'Research' })],
    );
    const chunks = await chunksOf(planner.client.prompt('Plan').stream().chunks());

    const nested = chunks.filter(
      (chunk): chunk is ToolResultChunk =>
        chunk.type === 'tool-result' && chunk.agentChunk !== undefined,
    );
    // No JSON in the text: the nested chunk is a typed field, read back as it is.
    expect(nested.every((chunk) => chunk.content === '' && chunk.preliminary === true)).toBe(true);
    expect(nested.every((chunk) => agentChunkOf(chunk) === chunk.agentChunk)).toBe(true);
    // The grandchild's chunks reach the top stream as the very objects its chain sent.
    const fromWeb = nested
      .filter((chunk) => chunk.agentChunk?.agentPath.join('/') === 'research/web')
      .map((chunk) => chunk.agentChunk?.chunk);
    expect(webSent.length).toBeGreaterThan(2);
    expect(fromWeb).toHaveLength(webSent.length);
    fromWeb.forEach((chunk, index) => expect(chunk).toBe(webSent[index]));
    // A plain object: what goes over the wire as JSON comes back equal.
    expect(JSON.parse(JSON.stringify(nested))).toEqual(nested);
  });

  it('links the nested call to the parent: path, depth and inherited interceptors', async () => {
    const seenPaths: string[][] = [];
    const modelCalls: string[] = [];
    const child = agent([{ text: 'ok' }]);
    const probe = advisor({
      name: 'probe',
      order: Order.HIGHEST_PRECEDENCE,
      before: (request) => {
        seenPaths.push([...agentPathOf(request.context)]);
        CallInterceptors.of(request.context).onModelCall(
          'count',
          (call, proceed) => {
            modelCalls.push(agentPathOf(call.request.context).join('/') || 'top');
            return proceed(call.request);
          },
          { inherit: true },
        );
        return request;
      },
    });
    const model = MockChatModel.script([delegate('child', 'go'), { text: 'done' }]);
    const parent = ChatClient.builder(model)
      .defaultAdvisors(probe)
      .defaultTools(agentTool({ client: child.client, name: 'child', description: 'A child' }))
      .build();
    await chunksOf(parent.prompt('Hi').stream().chunks());
    expect(seenPaths).toEqual([[]]);
    expect(modelCalls).toEqual(['top', 'child', 'top']);
  });

  it('builds the nested prompt with `prompt` and shows the parent model a summary with `output`', async () => {
    const child = agent([{ text: 'A long answer with many words.' }]);
    const parent = agent(
      [
        { toolCalls: [{ name: 'translate', arguments: { text: 'Hallo', to: 'en' } }] },
        { text: 'Done.' },
      ],
      [
        agentTool<{ text: string; to: string }>({
          client: child.client,
          name: 'translate',
          description: 'Translates',
          parameters: {
            type: 'object',
            properties: { text: { type: 'string' }, to: { type: 'string' } },
            required: ['text', 'to'],
          },
          prompt: ({ text, to }) => child.client.prompt().system(`Translate to ${to}.`).user(text),
          output: (response) => Promise.resolve(`${response.text.split(' ').length} words`),
        }),
      ],
    );
    await chunksOf(parent.client.prompt('Hi').stream().chunks());
    expect(child.model.requests[0].messages).toEqual([
      { role: 'system', content: 'Translate to en.' },
      { role: 'user', content: 'Hallo' },
    ]);
    expect(toolResultsSeen(parent.model, 1)[0].content).toBe('6 words');
  });

  it('refuses to run deeper than maxDepth: the model sees an AgentDepthError', async () => {
    const leaf = agent([{ text: 'never' }]);
    const middle = agent(
      [delegate('leaf', 'go'), { text: 'middle done' }],
      [agentTool({ client: leaf.client, name: 'leaf', description: 'Leaf', maxDepth: 1 })],
    );
    const top = agent(
      [delegate('middle', 'go'), { text: 'top done' }],
      [agentTool({ client: middle.client, name: 'middle', description: 'Middle' })],
    );
    await chunksOf(top.client.prompt('Hi').stream().chunks());
    expect(leaf.model.requests).toHaveLength(0);
    const [refusal] = toolResultsSeen(middle.model, 1);
    expect(refusal.isError).toBe(true);
    expect(refusal.content).toContain(
      'would run at depth 2 (middle → leaf), and its maxDepth is 1',
    );
  });

  it('refuses a cycle through the top-level client at its first re-entry', async () => {
    const wired: { toA?: Tool } = {};
    const b = agent(
      [delegate('toA', 'back'), { text: 'b done' }],
      [{ ...agentToolLazy(() => wired.toA), name: 'toA' } as Tool],
    );
    const a = agent([delegate('toB', 'go'), { text: 'a top done' }], []);
    const toB = agentTool({ client: b.client, name: 'toB', description: 'B' });
    const aClient = a.client.mutate().defaultTools(toB).build();
    wired.toA = agentTool({ client: aClient, name: 'toA', description: 'A' });
    const chunks = await chunksOf(aClient.prompt('Hi').stream().chunks());
    // top A → toB (B) → toA: A runs the top-level call already; it is never started again.
    const refused = toolResultsSeen(b.model, 1)[0];
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain(
      '"toA" was not started: it is already running in this tree (toB → toA)',
    );
    expect(a.model.requests).toHaveLength(2);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('refuses a cycle between nested agents with an AgentCycleError', async () => {
    const wired: { toB?: Tool } = {};
    const c = agent(
      [delegate('toB', 'again'), { text: 'c done' }],
      [{ ...agentToolLazy(() => wired.toB), name: 'toB' } as Tool],
    );
    const toC = agentTool({ client: c.client, name: 'toC', description: 'C' });
    const b = agent([delegate('toC', 'go'), { text: 'b done' }], [toC]);
    wired.toB = agentTool({ client: b.client, name: 'toB', description: 'B' });
    const top = agent([delegate('toB', 'go'), { text: 'top done' }], [wired.toB]);
    await chunksOf(top.client.prompt('Hi').stream().chunks());
    // top → toB (B) → toC (C) → toB: B is running already.
    const refused = toolResultsSeen(c.model, 1)[0];
    expect(refused.isError).toBe(true);
    expect(refused.content).toContain(
      '"toB" was not started: it is already running in this tree (toB → toC → toB)',
    );
    expect(b.model.requests).toHaveLength(2);
  });

  it('reports a failed child as an error result by default', async () => {
    const child = agent([{ text: 'half', error: 'model down' }]);
    const parent = agent(
      [delegate('child', 'go'), { text: 'Sorry.' }],
      [agentTool({ client: child.client, name: 'child', description: 'A child' })],
    );
    const chunks = await chunksOf(parent.client.prompt('Hi').stream().chunks());
    const [result] = toolResultsSeen(parent.model, 1);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('The agent "child" (child) failed: ');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it("fails the parent with onError: 'throw', whatever the parent loop's policy", async () => {
    const child = agent([{ error: 'model down' }]);
    const parent = agent(
      [delegate('child', 'go'), { text: 'never' }],
      [
        agentTool({
          client: child.client,
          name: 'child',
          description: 'A child',
          onError: 'throw',
        }),
      ],
    );
    const error: unknown = await chunksOf(parent.client.prompt('Hi').stream().chunks()).catch(
      (e: unknown) => e,
    );
    expect(AgentRunError.isInstance(error)).toBe(true);
    expect((error as AgentRunError).path).toEqual(['child']);
    expect(parent.model.requests).toHaveLength(1);
  });

  it("fails the whole tree when every level says onError: 'throw'", async () => {
    const leaf = agent([{ text: 'never' }]);
    const middle = agent(
      [delegate('leaf', 'go'), { text: 'never' }],
      [
        agentTool({
          client: leaf.client,
          name: 'leaf',
          description: 'Leaf',
          maxDepth: 1,
          onError: 'throw',
        }),
      ],
    );
    const top = agent(
      [delegate('middle', 'go'), { text: 'never' }],
      [
        agentTool({
          client: middle.client,
          name: 'middle',
          description: 'Middle',
          onError: 'throw',
        }),
      ],
    );
    const error: unknown = await chunksOf(top.client.prompt('Hi').stream().chunks()).catch(
      (e: unknown) => e,
    );
    expect(AgentRunError.isInstance(error)).toBe(true);
    const cause = (error as AgentRunError).cause;
    expect(AgentDepthError.isInstance(cause)).toBe(true);
    expect(AgentCycleError.isInstance(cause)).toBe(false);
    expect((cause as AgentDepthError).path).toEqual(['middle', 'leaf']);
    expect(leaf.model.requests).toHaveLength(0);
    expect(top.model.requests).toHaveLength(1);
  });

  it('reports a prompt or output callback that throws as an error result', async () => {
    const child = agent([{ text: 'ok' }]);
    const parent = agent(
      [
        {
          toolCalls: [
            { name: 'a', arguments: { task: 'x' } },
            { name: 'b', arguments: { task: 'y' } },
          ],
        },
        { text: 'Done.' },
      ],
      [
        agentTool({
          client: child.client,
          name: 'a',
          description: 'A',
          prompt: () => {
            throw new Error('no prompt');
          },
        }),
        agentTool({
          client: child.client,
          name: 'b',
          description: 'B',
          output: () => {
            throw new Error('no summary');
          },
        }),
      ],
    );
    await chunksOf(parent.client.prompt('Hi').stream().chunks());
    const results = toolResultsSeen(parent.model, 1);
    expect(results.map((r) => r.isError)).toEqual([true, true]);
    expect(results[0].content).toContain('no prompt');
    expect(results[1].content).toContain('no summary');
  });

  it('starts a fresh child run on re-subscription', async () => {
    const child = agent([{ text: 'one' }, { text: 'two' }]);
    const parent = agent(
      [delegate('child', 'go'), { text: 'a' }, delegate('child', 'go'), { text: 'b' }],
      [agentTool({ client: child.client, name: 'child', description: 'A child' })],
    );
    const chunks$ = parent.client.prompt('Hi').stream().chunks();
    await chunksOf(chunks$);
    await chunksOf(chunks$);
    expect(toolResultsSeen(parent.model, 1)[0].content).toBe('one');
    expect(toolResultsSeen(parent.model, 3)[0].content).toBe('two');
  });

  it('validates its options', () => {
    const { client } = agent([]);
    expect(() => agentTool({ client, name: 'x', description: 'x', maxDepth: 0 })).toThrow(
      InvalidOptionsError,
    );
    expect(() =>
      agentTool({ client, name: 'x', description: 'x', onError: 'ignore' as never }),
    ).toThrow(InvalidOptionsError);
    expect(() => agentTool({ client: {} as ChatClient, name: 'x', description: 'x' })).toThrow(
      InvalidOptionsError,
    );
  });

  it('call() aggregates the usage of the whole tree', async () => {
    const seen: ChatChunk[] = [];
    const child = agent([{ text: 'c', usage: { inputTokens: 1, outputTokens: 1 } }]);
    const parent = agent(
      [delegate('child', 'go'), { text: 'p', usage: { inputTokens: 1, outputTokens: 1 } }],
      [agentTool({ client: child.client, name: 'child', description: 'A child' })],
    );
    await lastValueFrom(
      parent.client
        .prompt('Hi')
        .call()
        .chatResponse()
        .pipe(tap((r) => seen.push({ type: 'usage', usage: r.usage }))),
    );
    expect(seen[0]).toEqual({
      type: 'usage',
      usage: { inputTokens: 12, outputTokens: 4, totalTokens: 16 },
    });
  });
});

/** A tool whose definition is resolved on first use (to build a cycle of clients). */
function agentToolLazy(get: () => Tool | undefined): Partial<Tool> {
  const resolve = (): Tool => {
    const found = get();
    if (found === undefined) throw new Error('not wired');
    return found;
  };
  return {
    description: 'A',
    inputSchema: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] },
    returnDirect: false,
    parseArguments: (text: string) => resolve().parseArguments(text),
    execute: (args, context) => resolve().execute(args, context),
    convertResult: (result) => resolve().convertResult(result),
  };
}
