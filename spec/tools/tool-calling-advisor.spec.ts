import { EMPTY, firstValueFrom, lastValueFrom, Observable, tap, throwError } from 'rxjs';
import type { Advisor } from '../../lib/advisor-api/advisor.js';
import { advisor } from '../../lib/advisor-api/advisor.js';
import { Order } from '../../lib/advisor-api/order.js';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatRequest } from '../../lib/core/chat-request';
import type { ChatResponse } from '../../lib/core/chat-response';
import type { Message, ToolMessage } from '../../lib/core/message';
import { ToolLoopTranscript } from '../../lib/core/tool-loop-transcript';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { ProviderError } from '../../lib/errors/provider-error';
import { ToolLoopLimitError } from '../../lib/errors/tool-loop-limit-error';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import type { MockRound } from '../../lib/testing/mock-round';
import type { Tool, ToolContext } from '../../lib/core/tool.js';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import type { ToolCallingAdvisorOptions } from '../../lib/tools/tool-calling-advisor-options';
import { tool } from '../../lib/tools/tool-fn';
import type { ToolLoopState, ToolLoopSummary } from '../../lib/tools/tool-loop-state';
import { chunksOf, textOf, timeTool, typesOf } from './support/fixtures';

const ASK_TIME: MockRound = { toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }] };
const ANSWER: MockRound = { text: 'It is noon in Paris.' };

function client(
  model: MockChatModel,
  tools: Tool[],
  loop: Advisor = new ToolCallingAdvisor(),
  ...advisors: Advisor[]
) {
  return ChatClient.builder(model)
    .defaultSystem('Be brief.')
    .defaultTools(...tools)
    .defaultAdvisors(loop, ...advisors)
    .build();
}

const call = (c: ChatClient, text = 'What time is it in Paris?') =>
  firstValueFrom(c.prompt(text).call().chatResponse());

function toolMessages(messages: readonly Message[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => m.role === 'tool');
}

describe('ToolCallingAdvisor', () => {
  describe('rounds', () => {
    it('one tool round makes two model calls and sends the result in the second', async () => {
      const cities: string[] = [];
      const model = MockChatModel.script([ASK_TIME, ANSWER]);
      const response = await call(client(model, [timeTool(cities)]));
      expect(response.text).toBe('It is noon in Paris.');
      expect(response.finishReason).toBe('stop');
      expect(response.metadata.rounds).toBe(2);
      expect(model.calls).toBe(2);
      expect(cities).toEqual(['Paris']);
      expect(model.requests[1].messages).toEqual([
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What time is it in Paris?' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'call_1_0', name: 'getTime', arguments: '{"city":"Paris"}' }],
        },
        { role: 'tool', toolCallId: 'call_1_0', name: 'getTime', content: '12:00 in Paris' },
      ]);
    });

    it('several tool rounds make N+1 model calls', async () => {
      const cities: string[] = [];
      const model = MockChatModel.script([
        ASK_TIME,
        { toolCalls: [{ name: 'getTime', arguments: { city: 'Oslo' } }] },
        { toolCalls: [{ name: 'getTime', arguments: { city: 'Rome' } }] },
        ANSWER,
      ]);
      const response = await call(client(model, [timeTool(cities)]));
      expect(model.calls).toBe(4);
      expect(response.metadata.rounds).toBe(4);
      expect(cities).toEqual(['Paris', 'Oslo', 'Rome']);
      expect(toolMessages(model.requests[3].messages).map((m) => m.content)).toEqual([
        '12:00 in Paris',
        '12:00 in Oslo',
        '12:00 in Rome',
      ]);
    });

    it('a call without tool calls is one round', async () => {
      const model = MockChatModel.script([ANSWER]);
      const response = await call(client(model, [timeTool()]));
      expect(model.calls).toBe(1);
      expect(response.metadata.rounds).toBe(1);
      expect(response.text).toBe('It is noon in Paris.');
    });

    it('runs the tools of one round in parallel and keeps the call order in the results', async () => {
      const started: string[] = [];
      const release: Record<string, () => void> = {};
      const slow = tool({
        name: 'slow',
        description: 'Waits to be released',
        parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        execute: ({ id }) =>
          new Promise<string>((resolve) => {
            started.push(id);
            release[id] = () => resolve(`done ${id}`);
          }),
      });
      const model = MockChatModel.script([
        {
          toolCalls: [
            { name: 'slow', arguments: { id: 'a' } },
            { name: 'slow', arguments: { id: 'b' } },
            { name: 'slow', arguments: { id: 'c' } },
          ],
        },
        ANSWER,
      ]);
      const done = call(client(model, [slow], new ToolCallingAdvisor({ concurrency: 2 })));
      await flushPromises();
      expect(started).toEqual(['a', 'b']); // bounded by concurrency 2
      release['b']();
      await flushPromises();
      expect(started).toEqual(['a', 'b', 'c']);
      release['c']();
      release['a']();
      await done;
      expect(toolMessages(model.requests[1].messages).map((m) => m.content)).toEqual([
        'done a',
        'done b',
        'done c',
      ]);
    });

    it('hands tools the call tool context, the call id and the round', async () => {
      const seen: unknown[] = [];
      const whoAmI = tool({
        name: 'whoAmI',
        description: 'The user id',
        parameters: { type: 'object', properties: {} },
        execute: (_args, { values, toolCallId, round, signal }) => {
          seen.push({ values, toolCallId, round, aborted: signal.aborted });
          return String(values['userId']);
        },
      });
      const model = MockChatModel.script([
        { toolCalls: [{ id: 'x1', name: 'whoAmI' }] },
        { toolCalls: [{ id: 'x2', name: 'whoAmI' }] },
        ANSWER,
      ]);
      await firstValueFrom(
        client(model, [whoAmI]).prompt('who').toolContext({ userId: 7 }).call().chatResponse(),
      );
      expect(seen).toEqual([
        { values: { userId: 7 }, toolCallId: 'x1', round: 1, aborted: false },
        { values: { userId: 7 }, toolCallId: 'x2', round: 2, aborted: false },
      ]);
      expect(toolMessages(model.requests[2].messages).map((m) => m.content)).toEqual(['7', '7']);
    });
  });

  describe('outbound stream', () => {
    it('sends the text of every round, no tool calls, then metadata, usage and finish once', async () => {
      const model = MockChatModel.script([
        { ...ASK_TIME, text: 'Let me check.', reasoning: 'Need time.', id: 'r1' },
        { ...ANSWER, id: 'r2' },
      ]);
      const chunks = await chunksOf(client(model, [timeTool()]).prompt('time?').stream().chunks());
      expect(typesOf(chunks)).toEqual([
        'reasoning-delta',
        'reasoning-delta',
        'text-delta',
        'text-delta',
        'text-delta',
        'text-delta',
        'text-delta',
        'text-delta',
        'text-delta',
        'text-delta',
        'metadata',
        'usage',
        'finish',
      ]);
      expect(textOf(chunks)).toBe('Let me check.It is noon in Paris.');
      expect(chunks.slice(-3)).toEqual([
        { type: 'metadata', id: 'r2', model: 'mock-model', rounds: 2 },
        {
          type: 'usage',
          usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
        },
        { type: 'finish', reason: 'stop' },
      ]);
    });

    it('with emitToolEvents also sends round markers, tool input as typed, tool calls and tool results', async () => {
      const model = MockChatModel.script([ASK_TIME, { text: ['Noon.'] }]);
      const loop = new ToolCallingAdvisor({ emitToolEvents: true });
      const chunks = await chunksOf(
        client(model, [timeTool()], loop).prompt('t').stream().chunks(),
      );
      expect(chunks).toEqual([
        { type: 'round-start', round: 1 },
        {
          type: 'tool-call-delta',
          index: 0,
          id: 'call_1_0',
          name: 'getTime',
          argumentsDelta: '{"city',
        },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '":"Par' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: 'is"}' },
        { type: 'tool-call', id: 'call_1_0', name: 'getTime', arguments: '{"city":"Paris"}' },
        { type: 'round-end', round: 1, finishReason: 'tool-calls' },
        { type: 'tool-result', id: 'call_1_0', name: 'getTime', content: '12:00 in Paris' },
        { type: 'round-start', round: 2 },
        { type: 'text-delta', text: 'Noon.' },
        { type: 'round-end', round: 2, finishReason: 'stop' },
        { type: 'metadata', id: 'mock-2', model: 'mock-model', rounds: 2 },
        {
          type: 'usage',
          usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
        },
        { type: 'finish', reason: 'stop' },
      ]);
    });

    it('emits tool-call chunks assembled from deltas when the model sent no complete ones', async () => {
      const model = MockChatModel.respond((_r, n) =>
        n === 1
          ? new Observable((s) => {
              s.next({
                type: 'tool-call-delta',
                index: 0,
                id: 'd1',
                name: 'getTime',
                argumentsDelta: '{"city":',
              });
              s.next({ type: 'tool-call-delta', index: 0, argumentsDelta: '"Rome"}' });
              s.next({ type: 'finish', reason: 'tool-calls' });
              s.complete();
            })
          : ANSWER,
      );
      const chunks = await chunksOf(
        client(model, [timeTool()], new ToolCallingAdvisor({ emitToolEvents: true }))
          .prompt('t')
          .stream()
          .chunks(),
      );
      expect(typesOf(chunks).slice(0, 6)).toEqual([
        'round-start',
        'tool-call-delta',
        'tool-call-delta',
        'tool-call',
        'round-end',
        'tool-result',
      ]);
      expect(chunks.filter((c) => c.type === 'tool-call' || c.type === 'tool-result')).toEqual([
        { type: 'tool-call', id: 'd1', name: 'getTime', arguments: '{"city":"Rome"}' },
        { type: 'tool-result', id: 'd1', name: 'getTime', content: '12:00 in Rome' },
      ]);
    });

    it('preamble "drop" keeps only the final round text', async () => {
      const model = MockChatModel.script([{ ...ASK_TIME, text: 'Let me check.' }, ANSWER]);
      const loop = new ToolCallingAdvisor({ preamble: 'drop' });
      const response = await call(client(model, [timeTool()], loop));
      expect(response.text).toBe('It is noon in Paris.');
      // the model still sees its own preamble in the assistant message
      expect(model.requests[1].messages[2]).toMatchObject({
        role: 'assistant',
        content: 'Let me check.',
      });
    });

    it('preamble "drop" with emitToolEvents sends the final text before its round-end', async () => {
      const model = MockChatModel.script([
        { ...ASK_TIME, text: ['Checking.'] },
        { text: ['Noon.'] },
      ]);
      const loop = new ToolCallingAdvisor({ preamble: 'drop', emitToolEvents: true });
      const chunks = await chunksOf(
        client(model, [timeTool()], loop).prompt('t').stream().chunks(),
      );
      expect(chunks.map((c) => (c.type === 'text-delta' ? c.text : c.type))).toEqual([
        'round-start',
        'tool-call-delta',
        'tool-call-delta',
        'tool-call-delta',
        'tool-call',
        'round-end',
        'tool-result',
        'round-start',
        'Noon.',
        'round-end',
        'metadata',
        'usage',
        'finish',
      ]);
    });

    it('lets advisors inside the loop see each round raw, tool-call chunks included', async () => {
      const seen: string[][] = [];
      const inner = advisor({
        name: 'inner',
        order: Order.HIGHEST_PRECEDENCE + 400,
        after: (source) => {
          const types: string[] = [];
          seen.push(types);
          return source.pipe(tap((c) => types.push(c.type)));
        },
      });
      const model = MockChatModel.script([ASK_TIME, { text: ['Noon.'] }]);
      await call(client(model, [timeTool()], new ToolCallingAdvisor(), inner));
      expect(seen).toEqual([
        [
          'metadata',
          'tool-call-delta',
          'tool-call-delta',
          'tool-call-delta',
          'tool-call',
          'finish',
        ],
        ['metadata', 'text-delta', 'finish'],
      ]);
    });
  });

  describe('usage', () => {
    const rounds: MockRound[] = [
      {
        ...ASK_TIME,
        usage: { inputTokens: 10, outputTokens: 20, totalTokens: 30, cacheReadTokens: 100 },
      },
      {
        ...ANSWER,
        usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3, cacheReadTokens: 200 },
      },
    ];
    const expected = { inputTokens: 11, outputTokens: 22, totalTokens: 33, cacheReadTokens: 300 };

    it('sums every round in call mode', async () => {
      const response = await call(client(MockChatModel.script(rounds), [timeTool()]));
      expect(response.usage).toEqual(expected);
    });

    it('sums every round in stream mode, in one usage chunk', async () => {
      const chunks = await chunksOf(
        client(MockChatModel.script(rounds), [timeTool()]).prompt('t').stream().chunks(),
      );
      expect(chunks.filter((c) => c.type === 'usage')).toEqual([
        { type: 'usage', usage: expected },
      ]);
    });

    it('gives each subscription its own total (re-subscription shares no state)', async () => {
      const model = MockChatModel.script([...rounds, ...rounds]);
      const response$ = client(model, [timeTool()]).prompt('t').call().chatResponse();
      const first = await firstValueFrom(response$);
      const second = await firstValueFrom(response$);
      expect(first.usage).toEqual(expected);
      expect(second.usage).toEqual(expected);
      expect(second.metadata.rounds).toBe(2);
      expect(model.calls).toBe(4);
    });
  });

  describe('eligibility', () => {
    it('a custom checker decides whether the tools run', async () => {
      const cities: string[] = [];
      const model = MockChatModel.script([{ ...ASK_TIME, text: 'Paris?', finishReason: 'stop' }]);
      const loop = new ToolCallingAdvisor({
        eligibility: (response) => response.finishReason === 'tool-calls',
      });
      const response = await call(client(model, [timeTool(cities)], loop));
      expect(model.calls).toBe(1);
      expect(cities).toEqual([]);
      expect(response.text).toBe('Paris?');
      expect(response.finishReason).toBe('stop');
    });

    it('a throwing checker fails the stream', async () => {
      const loop = new ToolCallingAdvisor({
        eligibility: () => {
          throw new Error('checker broke');
        },
      });
      await expect(
        call(client(MockChatModel.script([ASK_TIME]), [timeTool()], loop)),
      ).rejects.toThrow('checker broke');
    });
  });

  describe('return direct', () => {
    const lookup = (name: string, answer: string) =>
      tool({
        name,
        description: name,
        parameters: { type: 'object', properties: {} },
        returnDirect: true,
        execute: () => answer,
      });

    it('ends after one model call with all results as the text (call)', async () => {
      const model = MockChatModel.script([
        { toolCalls: [{ name: 'a' }, { name: 'b' }], usage: { inputTokens: 5, outputTokens: 1 } },
      ]);
      const response = await call(client(model, [lookup('a', 'first'), lookup('b', 'second')]));
      expect(model.calls).toBe(1);
      expect(response.text).toBe('first\nsecond');
      expect(response.finishReason).toBe('return-direct');
      expect(response.metadata.rounds).toBe(1);
      expect(response.usage).toEqual({ inputTokens: 5, outputTokens: 1, totalTokens: 6 });
    });

    it('ends after one model call with all results as the text (stream)', async () => {
      const model = MockChatModel.script([{ toolCalls: [{ name: 'a' }, { name: 'b' }] }]);
      const chunks = await chunksOf(
        client(model, [lookup('a', 'first'), lookup('b', 'second')])
          .prompt('x')
          .stream()
          .chunks(),
      );
      expect(model.calls).toBe(1);
      expect(textOf(chunks)).toBe('first\nsecond');
      expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'return-direct' });
    });

    it('goes on to the model when only some tools of the round are return-direct', async () => {
      const model = MockChatModel.script([
        { toolCalls: [{ name: 'a' }, ASK_TIME.toolCalls![0]] },
        ANSWER,
      ]);
      const response = await call(client(model, [lookup('a', 'first'), timeTool()]));
      expect(model.calls).toBe(2);
      expect(response.finishReason).toBe('stop');
    });

    it('goes on to the model when a return-direct tool failed, so it can recover', async () => {
      const model = MockChatModel.script([
        { toolCalls: [{ name: 'a', arguments: '{oops' }] },
        ANSWER,
      ]);
      const response = await call(client(model, [lookup('a', 'first')]));
      expect(model.calls).toBe(2);
      expect(response.text).toBe('It is noon in Paris.');
    });
  });

  describe('conversation history', () => {
    it('on (default): each round sees every earlier round', async () => {
      const model = MockChatModel.script([ASK_TIME, ASK_TIME, ANSWER]);
      await call(client(model, [timeTool()]));
      expect(model.requests[2].messages.map((m) => m.role)).toEqual([
        'system',
        'user',
        'assistant',
        'tool',
        'assistant',
        'tool',
      ]);
    });

    it('off: each round sends the system messages and the tool results only', async () => {
      const model = MockChatModel.script([ASK_TIME, ASK_TIME, ANSWER]);
      await call(
        client(model, [timeTool()], new ToolCallingAdvisor({ conversationHistory: false })),
      );
      expect(model.requests[1].messages).toEqual([
        { role: 'system', content: 'Be brief.' },
        { role: 'tool', toolCallId: 'call_1_0', name: 'getTime', content: '12:00 in Paris' },
      ]);
      expect(model.requests[2].messages.map((m) => m.role)).toEqual(['system', 'tool']);
    });

    it('writes the messages it added to the transcript for advisors outside the loop', async () => {
      let stored: (() => readonly Message[]) | undefined;
      const outside = advisor({
        name: 'memory-like',
        order: Order.CHAT_MEMORY,
        before: (request) => {
          const transcript = ToolLoopTranscript.of(request.context);
          const mark = transcript.mark();
          stored = () => transcript.since(mark);
          return request;
        },
      });
      const model = MockChatModel.script([ASK_TIME, ASK_TIME, ANSWER]);
      await call(client(model, [timeTool()], new ToolCallingAdvisor(), outside));
      const messages = stored?.() ?? [];
      expect(messages.map((m) => m.role)).toEqual(['assistant', 'tool', 'assistant', 'tool']);
      expect(messages[3]).toEqual({
        role: 'tool',
        toolCallId: 'call_2_0',
        name: 'getTime',
        content: '12:00 in Paris',
      });
    });
  });

  describe('hooks', () => {
    class Recording extends ToolCallingAdvisor {
      readonly log: string[] = [];
      constructor(options?: ToolCallingAdvisorOptions) {
        super(options);
      }
      protected override initializeLoop(request: ChatRequest, state: ToolLoopState) {
        this.log.push(`initialize:${state.round}`);
        return super.initializeLoop(request, state);
      }
      protected override beforeRound(request: ChatRequest, state: ToolLoopState) {
        this.log.push(`before:${state.round}`);
        return request;
      }
      protected override afterRound(response: ChatResponse, state: ToolLoopState) {
        this.log.push(`after:${state.round}`);
        return response;
      }
      protected override finalizeLoop(summary: ToolLoopSummary, state: ToolLoopState) {
        this.log.push(`finalize:${state.round}`);
        return summary;
      }
    }

    it('for one tool round: initialize x1, before x2, after x2, finalize x1', async () => {
      const loop = new Recording();
      await call(client(MockChatModel.script([ASK_TIME, ANSWER]), [timeTool()], loop));
      expect(loop.log).toEqual([
        'initialize:0',
        'before:1',
        'after:1',
        'before:2',
        'after:2',
        'finalize:2',
      ]);
    });

    it('keeps messages a hook injects in later rounds, and offers tools it adds', async () => {
      const extra = tool({
        name: 'extra',
        description: 'Disclosed in round 2',
        parameters: {},
        execute: () => 'extra result',
      });
      class Disclosing extends ToolCallingAdvisor {
        protected override beforeRound(request: ChatRequest, state: ToolLoopState) {
          if (state.round === 1)
            return request.appendMessages({ role: 'system', content: 'injected' });
          if (state.round === 2) return request.withTools([...request.tools, extra]);
          return request;
        }
      }
      const model = MockChatModel.script([ASK_TIME, { toolCalls: [{ name: 'extra' }] }, ANSWER]);
      await call(client(model, [timeTool()], new Disclosing()));
      for (const request of model.requests) {
        expect(request.messages).toContainEqual({ role: 'system', content: 'injected' });
      }
      expect(model.requests[0].tools.map((t) => t.name)).toEqual(['getTime']);
      expect(model.requests[2].tools.map((t) => t.name)).toEqual(['getTime', 'extra']);
      expect(toolMessages(model.requests[2].messages).at(-1)!.content).toBe('extra result');
    });

    it('shows context an inner advisor wrote in round N to round N+1', async () => {
      const seen: unknown[] = [];
      const inner = advisor({
        name: 'counter',
        order: 0,
        before: (request) => {
          seen.push(request.context.get('count'));
          request.context.set('count', ((request.context.get('count') as number) ?? 0) + 1);
          return request;
        },
      });
      await call(
        client(
          MockChatModel.script([ASK_TIME, ASK_TIME, ANSWER]),
          [timeTool()],
          new ToolCallingAdvisor(),
          inner,
        ),
      );
      expect(seen).toEqual([undefined, 1, 2]);
    });

    it('lets nextRoundMessages decide what the next round sends', async () => {
      class LastResultOnly extends ToolCallingAdvisor {
        protected override nextRoundMessages(
          _request: ChatRequest,
          _response: ChatResponse,
          results: readonly ToolMessage[],
        ): readonly Message[] {
          return [{ role: 'user', content: `Tool said: ${results[0]?.content ?? ''}` }];
        }
      }
      const model = MockChatModel.script([ASK_TIME, ANSWER]);
      await call(client(model, [timeTool()], new LastResultOnly()));
      expect(model.requests[1].messages).toEqual([
        { role: 'user', content: 'Tool said: 12:00 in Paris' },
      ]);
    });

    it('fails the stream, without a model call, when beforeRound throws', async () => {
      class Broken extends ToolCallingAdvisor {
        protected override beforeRound(): ChatRequest {
          throw new Error('hook broke');
        }
      }
      const model = MockChatModel.script([ANSWER]);
      await expect(call(client(model, [timeTool()], new Broken()))).rejects.toThrow('hook broke');
      expect(model.calls).toBe(0);
    });

    it('is recognised by isInstance, subclasses and other package copies included', () => {
      class Sub extends ToolCallingAdvisor {}
      const foreign = { [Symbol.for('rx-advisors.advisor.ToolCallingAdvisor')]: true };
      expect(ToolCallingAdvisor.isInstance(new Sub())).toBe(true);
      expect(ToolCallingAdvisor.isInstance(foreign)).toBe(true);
      expect(ToolCallingAdvisor.isInstance({ name: 'ToolCallingAdvisor' })).toBe(false);
      expect(new ToolCallingAdvisor().order).toBe(Order.TOOL_CALLING);
    });

    it('uses toolErrorContent for what the model sees of a failure', async () => {
      class Terse extends ToolCallingAdvisor {
        protected override toolErrorContent() {
          return 'nope';
        }
      }
      const model = MockChatModel.script([{ toolCalls: [{ name: 'missing' }] }, ANSWER]);
      await call(client(model, [timeTool()], new Terse()));
      expect(toolMessages(model.requests[1].messages)[0]).toMatchObject({
        content: 'nope',
        isError: true,
      });
    });
  });

  describe('limits', () => {
    it('fails with ToolLoopLimitError after maxRounds model calls, never loops forever', async () => {
      const model = MockChatModel.script([ASK_TIME], { onExhausted: 'repeat-last' });
      const error = await call(
        client(model, [timeTool()], new ToolCallingAdvisor({ maxRounds: 3 })),
      ).catch((e: unknown) => e);
      expect(ToolLoopLimitError.isInstance(error)).toBe(true);
      expect((error as ToolLoopLimitError).rounds).toBe(3);
      expect(model.calls).toBe(3);
    });

    it('refuses calls past a per-tool limit with an error result the model sees', async () => {
      const cities: string[] = [];
      const model = MockChatModel.script([ASK_TIME, ASK_TIME, ASK_TIME, ANSWER]);
      const loop = new ToolCallingAdvisor({ toolCallLimits: { getTime: 2 } });
      const response = await call(client(model, [timeTool(cities)], loop));
      expect(cities).toEqual(['Paris', 'Paris']);
      const last = toolMessages(model.requests[3].messages).at(-1)!;
      expect(last.isError).toBe(true);
      expect(last.content).toContain('at most 2 times');
      expect(response.text).toBe('It is noon in Paris.');
    });

    it('runs 1,000 rounds against a synchronous model and tool to the end', async () => {
      // Every round starts on a fresh stack; before, ~300 synchronous rounds never completed.
      const rounds = 1_000;
      const calls: number[] = [];
      const counter = tool({
        name: 'count',
        description: 'Counts its calls',
        parameters: { type: 'object', properties: {} } as const,
        execute: (_args, { round }) => {
          calls.push(round);
          return String(round);
        },
      });
      const model = MockChatModel.script([
        ...Array.from({ length: rounds }, () => ({
          toolCalls: [{ name: 'count', arguments: {} }],
          usage: { inputTokens: 1, outputTokens: 1 },
        })),
        { text: 'counted', usage: { inputTokens: 1, outputTokens: 1 } },
      ]);
      const loop = new ToolCallingAdvisor({ maxRounds: rounds + 1, conversationHistory: false });
      const response = await call(client(model, [counter], loop));
      expect(response.text).toBe('counted');
      expect(response.metadata.rounds).toBe(rounds + 1);
      expect(response.usage.totalTokens).toBe(2 * (rounds + 1));
      expect(calls).toHaveLength(rounds);
      expect(calls.at(-1)).toBe(rounds);
    });

    it.each<[string, ToolCallingAdvisorOptions]>([
      ['maxRounds', { maxRounds: 0 }],
      ['concurrency', { concurrency: 0 }],
      ['toolCallLimits.getTime', { toolCallLimits: { getTime: -1 } }],
      ['onToolError', { onToolError: 'ignore' as never }],
      ['preamble', { preamble: 'hide' as never }],
      ['toolTimeout', { toolTimeout: 0 }],
      ['eligibility', { eligibility: true as never }],
    ])('rejects a bad %s with an InvalidOptionsError', (option, options) => {
      expect(() => new ToolCallingAdvisor(options)).toThrow(expect.objectContaining({ option }));
      expect(() => new ToolCallingAdvisor(options)).toThrow(InvalidOptionsError);
    });
  });

  describe('failures', () => {
    it('fails with the model error when a later round errors', async () => {
      const model = MockChatModel.script([ASK_TIME, { text: 'par', error: 'connection reset' }]);
      const error = await call(client(model, [timeTool()])).catch((e: unknown) => e);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('connection reset');
    });

    it('ends an empty model stream with metadata, usage and finish "other"', async () => {
      const model = MockChatModel.respond(() => EMPTY);
      const chunks = await chunksOf(client(model, [timeTool()]).prompt('x').stream().chunks());
      expect(chunks).toEqual([
        { type: 'metadata', rounds: 1 },
        {
          type: 'usage',
          usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
        },
        { type: 'finish', reason: 'other' },
      ]);
    });

    it('aborts a running tool when unsubscribed, and emits nothing after', async () => {
      let signal: AbortSignal | undefined;
      const hang = tool({
        name: 'hang',
        description: 'Never finishes',
        parameters: {},
        execute: (_args, context) => {
          signal = context.signal;
          return new Promise<string>(() => undefined);
        },
      });
      const model = MockChatModel.script([{ toolCalls: [{ name: 'hang' }] }, ANSWER]);
      const received: string[] = [];
      const subscription = client(model, [hang])
        .prompt('x')
        .stream()
        .chunks()
        .subscribe((c) => received.push(c.type));
      await flushPromises();
      expect(signal?.aborted).toBe(false);
      subscription.unsubscribe();
      expect(signal?.aborted).toBe(true);
      await flushPromises();
      expect(received).toEqual([]);
      expect(model.calls).toBe(1);
    });

    it('aborts the signal of a tool that handed it on before returning a Promise', async () => {
      let seen: ToolContext | undefined;
      const hang = tool({
        name: 'hang',
        description: 'Never finishes',
        parameters: {},
        // Spreading the context reads every field, the signal included.
        execute: (_args, context) => {
          seen = { ...context };
          return new Promise<string>(() => undefined);
        },
      });
      const model = MockChatModel.script([{ toolCalls: [{ name: 'hang' }] }, ANSWER]);
      const subscription = client(model, [hang]).prompt('x').stream().chunks().subscribe();
      await flushPromises();
      expect(seen?.signal).toBeInstanceOf(AbortSignal);
      expect(seen?.signal.aborted).toBe(false);
      subscription.unsubscribe();
      expect(seen?.signal.aborted).toBe(true);
    });

    it('gives an aborted signal to a tool that reads it only after its call was unsubscribed', async () => {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let aborted: boolean | undefined;
      const late = tool({
        name: 'late',
        description: 'Reads its signal after an await',
        parameters: {},
        execute: async (_args, context) => {
          await released;
          aborted = context.signal.aborted;
          return 'too late';
        },
      });
      const model = MockChatModel.script([{ toolCalls: [{ name: 'late' }] }, ANSWER]);
      const subscription = client(model, [late]).prompt('x').stream().chunks().subscribe();
      await flushPromises();
      subscription.unsubscribe();
      release();
      await flushPromises();
      expect(aborted).toBe(true);
    });

    it('does not abort the signal of a tool that finished', async () => {
      let signal: AbortSignal | undefined;
      const quick = tool({
        name: 'quick',
        description: 'Done at once',
        parameters: {},
        execute: (_args, context) => {
          signal = context.signal;
          return Promise.resolve('ok');
        },
      });
      await call(
        client(MockChatModel.script([{ toolCalls: [{ name: 'quick' }] }, ANSWER]), [quick]),
      );
      expect(signal?.aborted).toBe(false);
    });

    it('passes a model error from the first round through', async () => {
      const model = MockChatModel.respond(() => throwError(() => new Error('down')));
      await expect(
        lastValueFrom(client(model, [timeTool()]).prompt('x').stream().chunks()),
      ).rejects.toThrow('down');
    });
  });
});

function flushPromises(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
