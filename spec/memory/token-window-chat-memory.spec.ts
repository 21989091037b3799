import { lastValueFrom } from 'rxjs';
import { ChatClient } from '../../lib/client/chat-client';
import type { Message } from '../../lib/core/message';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { MessageChatMemoryAdvisor } from '../../lib/memory/message-chat-memory-advisor';
import { TokenWindowChatMemory } from '../../lib/memory/token-window-chat-memory';
import { MockChatModel } from '../../lib/testing';
import { tool } from '../../lib/tools/tool-fn';

const sys = (content: string): Message => ({ role: 'system', content });
const u = (content: string): Message => ({ role: 'user', content });
const a = (content: string): Message => ({ role: 'assistant', content });
/** 40 characters: 10 tokens by the default estimate. */
const ten = (tag: string): string => tag.padEnd(40, '.');

describe('TokenWindowChatMemory', () => {
  it('keeps the newest whole turns that fit the budget, by the default estimate (4 characters a token)', async () => {
    const memory = new TokenWindowChatMemory({ maxTokens: 45 });
    for (let i = 1; i <= 3; i++) await memory.add('c1', [u(ten(`q${i}`)), a(ten(`a${i}`))]);
    // Each turn is 20 tokens: two fit in 45, three do not.
    expect(await memory.get('c1')).toEqual([
      u(ten('q2')),
      a(ten('a2')),
      u(ten('q3')),
      a(ten('a3')),
    ]);
    expect(memory.estimate('c1', u(ten('x')))).toBe(10);
  });

  it('never splits a turn: a tool call stays with its results, and system messages always stay', async () => {
    const memory = new TokenWindowChatMemory({ maxTokens: 50 });
    const call: Message = {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'getTime', arguments: ten('{}').slice(0, 33) }],
    };
    const result: Message = {
      role: 'tool',
      toolCallId: 'c1',
      name: 'getTime',
      content: ten('12:00').slice(0, 33),
    };
    await memory.add('c1', [sys(ten('rules')), u(ten('q1')), a(ten('a1'))]);
    await memory.add('c1', [u(ten('q2')), call, result, a(ten('a2'))]);
    // system 10 + turn 2 (10 + 10 + 10 + 10) = 50: turn 1 goes whole.
    expect(await memory.get('c1')).toEqual([
      sys(ten('rules')),
      u(ten('q2')),
      call,
      result,
      a(ten('a2')),
    ]);
    await memory.add('c1', [u('q3')]);
    // Turn 2 no longer fits beside q3; it is dropped whole, never from its middle.
    expect(await memory.get('c1')).toEqual([sys(ten('rules')), u('q3')]);
  });

  it('keeps the newest turn even when it alone is over budget', async () => {
    const memory = new TokenWindowChatMemory({ maxTokens: 5 });
    await memory.add('c1', [u(ten('q1')), a(ten('a1'))]);
    await memory.add('c1', [u(ten('q2')), a(ten('a2'))]);
    expect(await memory.get('c1')).toEqual([u(ten('q2')), a(ten('a2'))]);
  });

  it("calibrates with the input tokens the provider reported for the conversation's calls", async () => {
    const chatMemory = new TokenWindowChatMemory({ maxTokens: 100 });
    // The provider counts 2 tokens per character of what was sent (the estimate says 0.25).
    const model = MockChatModel.respond((request) => {
      let characters = 0;
      for (const m of request.messages) characters += m.content.length;
      return { text: ten('answer'), usage: { inputTokens: characters * 2, outputTokens: 1 } };
    });
    const client = ChatClient.builder(model)
      .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
      .build();
    const ask = (text: string) =>
      lastValueFrom(client.prompt(text).advisorParams({ conversationId: 'c1' }).call().content());

    await ask(ten('q1'));
    expect(chatMemory.estimate('c1', u(ten('x')))).toBe(80);
    // Turns are 160 tokens by the provider's count: only the newest stays.
    await ask(ten('q2'));
    expect(await chatMemory.get('c1')).toEqual([u(ten('q2')), a(ten('answer'))]);
    // The same conversation under the default estimate (20 tokens a turn) would keep 5 turns.
    const estimated = new TokenWindowChatMemory({ maxTokens: 100 });
    await estimated.add('c2', [u(ten('q1')), a(ten('answer')), u(ten('q2')), a(ten('answer'))]);
    expect(await estimated.get('c2')).toHaveLength(4);
  });

  it('calibrates over every round of a tool loop (each round resends the earlier ones)', async () => {
    const chatMemory = new TokenWindowChatMemory();
    const added = jest.spyOn(chatMemory, 'add');
    const model = MockChatModel.script([
      {
        toolCalls: [{ name: 'getTime', arguments: {} }],
        usage: { inputTokens: 30, outputTokens: 1 },
      },
      { text: 'Noon.', usage: { inputTokens: 50, outputTokens: 1 } },
    ]);
    const getTime = tool({
      name: 'getTime',
      description: 'Time.',
      parameters: { type: 'object', properties: {} },
      execute: () => '12:00',
    });
    const client = ChatClient.builder(model)
      .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
      .build();
    await lastValueFrom(
      client
        .prompt('Time?')
        .tools(getTime)
        .advisorParams({ conversationId: 'c1' })
        .call()
        .content(),
    );
    const report = added.mock.calls[0][2]!;
    expect(report.inputTokens).toBe(80);
    expect(report.calls.map((call) => call.length)).toEqual([1, 3]);
    expect(report.calls[1]).toEqual(model.requests[1].messages);
  });

  it('clears a conversation and its calibration', async () => {
    const memory = new TokenWindowChatMemory();
    await memory.add('c1', [u('hi')], { inputTokens: 100, calls: [[u('hi')]] });
    expect(memory.estimate('c1', u('hi'))).toBe(100);
    await memory.clear('c1');
    expect(await memory.get('c1')).toEqual([]);
    expect(memory.estimate('c1', u('hi'))).toBe(0.5);
  });

  it('keeps at most maxCalibrations conversations calibrated, dropping the oldest', async () => {
    const memory = new TokenWindowChatMemory({ maxCalibrations: 1 });
    await memory.add('c1', [u('hi')], { inputTokens: 100, calls: [[u('hi')]] });
    await memory.add('c2', [u('hi')], { inputTokens: 100, calls: [[u('hi')]] });
    expect(memory.estimate('c1', u('hi'))).toBe(0.5);
    expect(memory.estimate('c2', u('hi'))).toBe(100);
  });

  it('rejects bad options and bad input with InvalidOptionsError', async () => {
    expect(() => new TokenWindowChatMemory({ maxTokens: 0 })).toThrow(InvalidOptionsError);
    expect(() => new TokenWindowChatMemory({ charactersPerToken: -1 })).toThrow(
      InvalidOptionsError,
    );
    await expect(new TokenWindowChatMemory().add('', [u('x')])).rejects.toThrow(
      InvalidOptionsError,
    );
  });
});
