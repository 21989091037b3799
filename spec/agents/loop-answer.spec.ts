import { concat, from, lastValueFrom, map, Observable, toArray } from 'rxjs';
import { AgentResponse } from '../../lib/agents/agent-response';
import { agentTool } from '../../lib/agents/agent-tool';
import type { Advisor } from '../../lib/advisor-api/advisor';
import { createAdvisorChain } from '../../lib/advisor-api/advisor-chain';
import { LOOP_ANSWER_KEY, LoopAnswer } from '../../lib/advisor-api/loop-answer';
import { Order } from '../../lib/advisor-api/order';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import type { ChatModel } from '../../lib/core/chat-model';
import type { ToolMessage } from '../../lib/core/message';
import { ResponseAssembler } from '../../lib/core/response-assembler';
import type { Tool } from '../../lib/core/tool';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import type { MockRound } from '../../lib/testing/mock-round';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import type { PreamblePolicy } from '../../lib/tools/tool-calling-advisor-options';
import { tool } from '../../lib/tools/tool-fn';

// Issue 28 (2026-12-03, second step): the agent tool takes the child's answer from the
// child's tool loop when the loop is the head of the child's chain (nothing outside it can
// change a chunk), instead of folding every chunk itself. What the parent model reads must
// be what a ResponseAssembler folding the child's stream gives, in every case.

const lookup = tool({
  name: 'lookup',
  description: 'Looks up',
  parameters: { type: 'object', properties: {} },
  execute: () => 'found',
});

const direct = tool({
  name: 'direct',
  description: 'Answers directly',
  parameters: { type: 'object', properties: {} },
  execute: () => 'direct answer',
  returnDirect: true,
});

const callTool = (name: string, text?: string): MockRound => ({
  ...(text === undefined ? {} : { text }),
  toolCalls: [{ name, arguments: {} }],
});

/** An advisor inside the loop: a rejected attempt's text, a `retry`, then the model's. */
const retrying: Advisor = {
  name: 'retrying',
  order: Order.DEFAULT,
  advise: (request, chain) =>
    concat(
      from<ChatChunk[]>([
        { type: 'text-delta', text: 'rejected ' },
        { type: 'retry', attempt: 2, reason: 'bad', advisor: 'retrying' },
      ]),
      chain.next(request),
    ),
};

/** An advisor inside the loop that withdraws what the round said so far, mid-round. */
const withdrawing: Advisor = {
  name: 'withdrawing',
  order: Order.DEFAULT,
  advise: (request, chain) =>
    concat(
      from<ChatChunk[]>([
        { type: 'text-delta', text: 'unsafe ' },
        {
          type: 'guardrail-tripped',
          guardrail: 'g',
          stage: 'output',
          message: 'withdrawn',
          withdraw: true,
        },
      ]),
      chain.next(request),
    ),
};

/** An advisor outside the loop that rewrites the text. */
const shouting: Advisor = {
  name: 'shouting',
  order: Order.TOOL_CALLING - 1,
  advise: (request, chain) =>
    chain
      .next(request)
      .pipe(
        map((chunk) =>
          chunk.type === 'text-delta' ? { ...chunk, text: chunk.text.toUpperCase() } : chunk,
        ),
      ),
};

interface Child {
  rounds: MockRound[];
  advisors?: Advisor[];
  tools?: Tool[];
  preamble?: PreamblePolicy;
}

function childClient(child: Child): { client: ChatClient; model: MockChatModel } {
  const model = MockChatModel.script(child.rounds);
  const client = ChatClient.builder(model)
    .defaultAdvisors(
      new ToolCallingAdvisor({ emitToolEvents: true, preamble: child.preamble ?? 'stream' }),
      ...(child.advisors ?? []),
    )
    .defaultTools(...(child.tools ?? [lookup, direct]))
    .build();
  return { client, model };
}

/** The child run with a slot, as the agent tool runs it: its chunks' text and the slot. */
async function runWithSlot(child: Child): Promise<{ folded: string; slot: LoopAnswer }> {
  const slot = new LoopAnswer();
  const chunks = await lastValueFrom(
    childClient(child)
      .client.prompt('go')
      .advisorParams({ [LOOP_ANSWER_KEY]: slot })
      .stream()
      .chunks()
      .pipe(toArray()),
  );
  const assembler = new ResponseAssembler();
  for (const chunk of chunks) assembler.add(chunk);
  return { folded: assembler.build().text, slot };
}

function parentOf(agent: Tool, model: ChatModel): ChatClient {
  return ChatClient.builder(model)
    .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
    .defaultTools(agent)
    .build();
}

const planned = () =>
  MockChatModel.script([
    { toolCalls: [{ name: 'research', arguments: { task: 'go' } }] },
    { text: 'planner done' },
  ]);

/** What the parent model read as the agent tool's result. */
const toolResult = (model: MockChatModel): ToolMessage =>
  model.requests[1].messages.find((m) => m.role === 'tool') as ToolMessage;

async function parentReads(child: Child): Promise<{ result: ToolMessage; folds: number }> {
  const add = jest.spyOn(AgentResponse.prototype, 'add');
  try {
    const parentModel = planned();
    const agent = agentTool({
      client: childClient(child).client,
      name: 'research',
      description: 'd',
    });
    await lastValueFrom(
      parentOf(agent, parentModel).prompt('Hi').stream().chunks().pipe(toArray()),
    );
    return { result: toolResult(parentModel), folds: add.mock.calls.length };
  } finally {
    add.mockRestore();
  }
}

describe('LoopAnswer: the text the head loop keeps is what its stream adds up to', () => {
  it.each<[string, Child, string]>([
    ['one round', { rounds: [{ text: 'just text' }] }, 'just text'],
    [
      'rounds with text before the tool calls (every round counts)',
      { rounds: [callTool('lookup', 'first '), callTool('lookup', 'second '), { text: 'last' }] },
      'first second last',
    ],
    [
      'a retry inside the loop in every round (clears what came before, earlier rounds too)',
      { rounds: [callTool('lookup', 'pre '), { text: 'final' }], advisors: [retrying] },
      'final',
    ],
    [
      'a withdrawn answer inside the loop',
      { rounds: [callTool('lookup', 'pre '), { text: 'final' }], advisors: [withdrawing] },
      'final',
    ],
    [
      'a return-direct round (its results are the answer)',
      { rounds: [callTool('direct', 'looking ')] },
      'looking direct answer',
    ],
  ])('%s', async (_, child, expected) => {
    const { folded, slot } = await runWithSlot(child);
    expect(folded).toBe(expected);
    expect(slot.claimed).toBe(true);
    expect(slot.text).toBe(folded);
  });

  it("is not claimed under the 'drop' preamble (text held back)", async () => {
    const { slot } = await runWithSlot({
      rounds: [callTool('lookup', 'dropped '), { text: 'kept' }],
      preamble: 'drop',
    });
    expect(slot.claimed).toBe(false);
  });

  it('is not claimed when an advisor sits outside the loop', async () => {
    const { folded, slot } = await runWithSlot({
      rounds: [{ text: 'quiet' }],
      advisors: [shouting],
    });
    expect(folded).toBe('QUIET');
    expect(slot.claimed).toBe(false);
  });

  it('is not claimed by a loop that heads a chain an outer advisor runs itself', async () => {
    const model = MockChatModel.script([{ text: 'quiet' }]);
    const inner = createAdvisorChain({ advisors: [new ToolCallingAdvisor()], model });
    const outer: Advisor = {
      name: 'own-chain',
      order: Order.TOOL_CALLING - 1,
      advise: (request) =>
        inner
          .next(request)
          .pipe(map((c) => (c.type === 'text-delta' ? { ...c, text: c.text.toUpperCase() } : c))),
    };
    const slot = new LoopAnswer();
    const client = ChatClient.builder(model).defaultAdvisors(outer).build();
    await lastValueFrom(
      client
        .prompt('go')
        .advisorParams({ [LOOP_ANSWER_KEY]: slot })
        .stream()
        .chunks()
        .pipe(toArray()),
    );
    expect(slot.head).toBe(outer);
    expect(slot.claimed).toBe(false);
  });
});

describe('agentTool: the answer from the child loop, as the parent model reads it', () => {
  it("takes a loop-only child's answer from its loop, folding none of its chunks", async () => {
    const { result, folds } = await parentReads({
      rounds: [callTool('lookup', 'pre '), { text: 'final' }],
    });
    expect(result.content).toBe('pre final');
    expect(folds).toBe(0);
  });

  it('gives a long answer of many deltas whole and in order', async () => {
    const deltas = Array.from({ length: 3_000 }, (_, i) => `w${i} `);
    const { result, folds } = await parentReads({ rounds: [{ text: deltas }] });
    expect(result.content).toBe(deltas.join(''));
    expect(folds).toBe(0);
  });

  it('gives each call of the same agent its own answer (a slot per subscription)', async () => {
    const parentModel = MockChatModel.script([
      {
        toolCalls: [
          { name: 'research', arguments: { task: 'one' } },
          { name: 'research', arguments: { task: 'two' } },
        ],
      },
      { text: 'planner done' },
    ]);
    const agent = agentTool({
      client: childClient({ rounds: [{ text: 'first answer' }, { text: 'second answer' }] }).client,
      name: 'research',
      description: 'd',
    });
    await lastValueFrom(
      parentOf(agent, parentModel).prompt('Hi').stream().chunks().pipe(toArray()),
    );
    const results = parentModel.requests[1].messages.filter(
      (m): m is ToolMessage => m.role === 'tool',
    );
    expect(results.map((m) => m.content)).toEqual(['first answer', 'second answer']);
  });

  it('still gives the rewritten text of an advisor outside the child loop', async () => {
    const { result, folds } = await parentReads({
      rounds: [{ text: 'quiet' }],
      advisors: [shouting],
    });
    expect(result.content).toBe('QUIET');
    expect(folds).toBeGreaterThan(0);
  });

  it("gives the text after a retry inside the child's loop", async () => {
    const { result } = await parentReads({
      rounds: [callTool('lookup', 'pre '), { text: 'final' }],
      advisors: [retrying],
    });
    expect(result.content).toBe('final');
  });

  it("folds the chunks itself under the child's 'drop' preamble", async () => {
    const { result, folds } = await parentReads({
      rounds: [callTool('lookup', 'dropped '), { text: 'kept' }],
      preamble: 'drop',
    });
    expect(result.content).toBe('kept');
    expect(folds).toBeGreaterThan(0);
  });

  it('gives output the whole response (folded by the agent tool)', async () => {
    const parentModel = planned();
    const agent = agentTool({
      client: childClient({ rounds: [callTool('lookup', 'pre '), { text: 'final' }] }).client,
      name: 'research',
      description: 'd',
      output: (response) => `${response.text}|${response.finishReason}|${response.metadata.rounds}`,
    });
    await lastValueFrom(
      parentOf(agent, parentModel).prompt('Hi').stream().chunks().pipe(toArray()),
    );
    expect(toolResult(parentModel).content).toBe('pre final|stop|2');
  });

  it("reports a failing child loop as an error result, not the loop's partial text", async () => {
    const { result } = await parentReads({
      rounds: [callTool('lookup', 'pre '), { text: 'half', error: 'model down' }],
    });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('The agent "research" (research) failed: ');
    expect(result.content).not.toContain('pre');
  });

  it('unsubscribes the child loop when the parent unsubscribes', async () => {
    let childTornDown = false;
    const hanging: ChatModel = {
      provider: 'hanging',
      stream: () =>
        new Observable<ChatChunk>((subscriber) => {
          subscriber.next({ type: 'text-delta', text: 'partial' });
          return () => {
            childTornDown = true;
          };
        }),
    };
    const child = ChatClient.builder(hanging)
      .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
      .defaultTools(lookup)
      .build();
    const parentModel = planned();
    const agent = agentTool({ client: child, name: 'research', description: 'd' });
    const seen: ChatChunk[] = [];
    const subscription = parentOf(agent, parentModel)
      .prompt('Hi')
      .stream()
      .chunks()
      .subscribe((chunk) => seen.push(chunk));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen.some((c) => c.type === 'tool-result' && c.agentChunk !== undefined)).toBe(true);
    subscription.unsubscribe();
    expect(childTornDown).toBe(true);
    expect(parentModel.requests).toHaveLength(1);
  });
});
