import { concatMap, firstValueFrom, lastValueFrom, reduce, toArray } from 'rxjs';
import type { Advisor } from '../../lib/advisor-api/advisor.js';
import { advisor } from '../../lib/advisor-api/advisor.js';
import { Order } from '../../lib/advisor-api/order.js';
import { AdvisorParams } from '../../lib/advisor-api/advisor-params.js';
import { ChatClient } from '../../lib/client/chat-client';
import { ResponseAssembler } from '../../lib/core/response-assembler';
import type { ChatRequest } from '../../lib/core/chat-request';
import type { Message } from '../../lib/core/message';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import type { MockRound } from '../../lib/testing/mock-round';
import { executeToolCalls } from '../../lib/tools/execute-tool-calls';
import { ToolCallingAdvisor } from '../../lib/tools/tool-calling-advisor';
import type { ToolContributor } from '../../lib/advisor-api/advisor-roles.js';
import type { ToolLoopState } from '../../lib/tools/tool-loop-state';
import { chunksOf, timeTool } from './support/fixtures';

const ASK_TIME: MockRound = { toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }] };
const ANSWER: MockRound = { text: 'It is noon in Paris.' };

describe('ChatClient tool loop auto-registration', () => {
  it('adds a ToolCallingAdvisor to a call with tools', async () => {
    const model = MockChatModel.script([ASK_TIME, ANSWER]);
    const text = await firstValueFrom(
      ChatClient.create(model).prompt('time?').tools(timeTool()).call().content(),
    );
    expect(text).toBe('It is noon in Paris.');
    expect(model.calls).toBe(2);
  });

  it('adds none to a call without tools: the model stream passes through', async () => {
    const model = MockChatModel.script([ANSWER]);
    const chunks = await chunksOf(ChatClient.create(model).prompt('hi').stream().chunks());
    expect(chunks[0]).toEqual({ type: 'metadata', id: 'mock-1', model: 'mock-model' });
  });

  it('keeps a registered one (or a subclass) instead of adding another', async () => {
    const log: number[] = [];
    class Counting extends ToolCallingAdvisor {
      protected override initializeLoop(request: ChatRequest, state: ToolLoopState) {
        log.push(state.round);
        return request;
      }
    }
    const model = MockChatModel.script([ASK_TIME, ASK_TIME, ANSWER]);
    const client = ChatClient.builder(model)
      .defaultAdvisors(new Counting({ maxRounds: 2 }))
      .defaultTools(timeTool())
      .build();
    // maxRounds 2 applies, so the registered loop is the only one
    await expect(firstValueFrom(client.prompt('t').call().content())).rejects.toMatchObject({
      rounds: 2,
    });
    expect(log).toEqual([0]);
  });

  it('rejects two tool calling advisors in one chain with a clear error', async () => {
    const client = ChatClient.builder(MockChatModel.script([ANSWER]))
      .defaultAdvisors(new ToolCallingAdvisor())
      .build();
    const error = await firstValueFrom(
      client.prompt('x').advisors(new ToolCallingAdvisor()).call().content(),
    ).catch((e: unknown) => e);
    expect(InvalidOptionsError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('at most one ToolCallingAdvisor');
  });

  it('adds one when an advisor contributes tools at run time', async () => {
    const tools = timeTool();
    const contributor: Advisor & ToolContributor = {
      name: 'contributor',
      order: Order.TOOL_CALLING - 1,
      contributesTools: true,
      advise: (request, chain) => chain.next(request.withTools([...request.tools, tools])),
    };
    const model = MockChatModel.script([ASK_TIME, ANSWER]);
    const text = await firstValueFrom(
      ChatClient.builder(model).defaultAdvisors(contributor).build().prompt('t').call().content(),
    );
    expect(text).toBe('It is noon in Paris.');
    expect(model.calls).toBe(2);
  });

  it('turns history off when an advisor after the loop manages the conversation', async () => {
    const inLoopMemory = Object.assign(advisor({ name: 'in-loop-memory', order: 0 }), {
      managesConversationHistory: true,
    });
    const model = MockChatModel.script([ASK_TIME, ANSWER]);
    await firstValueFrom(
      ChatClient.builder(model)
        .defaultSystem('sys')
        .defaultAdvisors(inLoopMemory)
        .defaultTools(timeTool())
        .build()
        .prompt('t')
        .call()
        .content(),
    );
    expect(model.requests[1].messages.map((m) => m.role)).toEqual(['system', 'tool']);
  });

  it('keeps history on when the memory advisor sits outside the loop', async () => {
    const outsideMemory = Object.assign(advisor({ name: 'memory', order: Order.CHAT_MEMORY }), {
      managesConversationHistory: true,
    });
    const model = MockChatModel.script([ASK_TIME, ANSWER]);
    await firstValueFrom(
      ChatClient.builder(model)
        .defaultAdvisors(outsideMemory)
        .defaultTools(timeTool())
        .build()
        .prompt('t')
        .call()
        .content(),
    );
    expect(model.requests[1].messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  describe('with toolCallingAdvisorAutoRegister: false (the manual loop)', () => {
    const off = { [AdvisorParams.TOOL_CALLING_ADVISOR_AUTO_REGISTER]: false };

    it('returns the tool calls unexecuted', async () => {
      const cities: string[] = [];
      const model = MockChatModel.script([ASK_TIME]);
      const response = await firstValueFrom(
        ChatClient.create(model)
          .prompt('t')
          .tools(timeTool(cities))
          .advisorParams(off)
          .call()
          .chatResponse(),
      );
      expect(response.finishReason).toBe('tool-calls');
      expect(response.message.toolCalls).toEqual([
        { id: 'call_1_0', name: 'getTime', arguments: '{"city":"Paris"}' },
      ]);
      expect(cities).toEqual([]);
    });

    it('can be driven by hand in call mode', async () => {
      const model = MockChatModel.script([ASK_TIME, ANSWER]);
      const client = ChatClient.create(model);
      const getTime = timeTool();
      const ask = (messages: Message[]) =>
        client
          .prompt()
          .messages(...messages)
          .tools(getTime)
          .advisorParams(off)
          .call()
          .chatResponse();
      const first: Message[] = [{ role: 'user', content: 'time?' }];
      const answer = await lastValueFrom(
        ask(first).pipe(
          concatMap((response) =>
            executeToolCalls({
              toolCalls: response.message.toolCalls ?? [],
              tools: [getTime],
            }).pipe(concatMap((results) => ask([...first, response.message, ...results]))),
          ),
        ),
      );
      expect(answer.text).toBe('It is noon in Paris.');
      expect(model.requests[1].messages.at(-1)).toEqual({
        role: 'tool',
        toolCallId: 'call_1_0',
        name: 'getTime',
        content: '12:00 in Paris',
      });
    });

    it('can be driven by hand in stream mode', async () => {
      const model = MockChatModel.script([{ ...ASK_TIME, text: 'Checking. ' }, ANSWER]);
      const client = ChatClient.create(model);
      const getTime = timeTool();
      const first: Message[] = [{ role: 'user', content: 'time?' }];
      const chunks$ = client
        .prompt()
        .messages(...first)
        .tools(getTime)
        .advisorParams(off)
        .stream()
        .chunks();
      const assembled = await lastValueFrom(
        chunks$.pipe(reduce((a, chunk) => a.add(chunk), new ResponseAssembler())),
      );
      const round1 = assembled.build();
      const results = await lastValueFrom(
        executeToolCalls({ toolCalls: round1.message.toolCalls ?? [], tools: [getTime] }),
      );
      const texts = await lastValueFrom(
        client
          .prompt()
          .messages(...first, round1.message, ...results)
          .tools(getTime)
          .advisorParams(off)
          .stream()
          .content()
          .pipe(toArray()),
      );
      expect(round1.text).toBe('Checking. ');
      expect(texts.join('')).toBe('It is noon in Paris.');
      expect(model.calls).toBe(2);
    });
  });
});
