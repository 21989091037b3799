import { lastValueFrom, toArray } from 'rxjs';
import { HandoffAdvisor } from '../../lib/agents/handoff-advisor';
import { ChatClient } from '../../lib/client/chat-client';
import type { ChatChunk } from '../../lib/core/chat-chunk';
import type { Message } from '../../lib/core/message';
import { AgentDepthError } from '../../lib/errors/agent-depth-error';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { MessageChatMemoryAdvisor } from '../../lib/memory/message-chat-memory-advisor';
import { MessageWindowChatMemory } from '../../lib/memory/message-window-chat-memory';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import type { MockRound } from '../../lib/testing/mock-round';

const chunksOf = (client: ChatClient, text: string, conversationId?: string) =>
  lastValueFrom(
    client
      .prompt(text)
      .advisorParams(conversationId === undefined ? {} : { conversationId })
      .stream()
      .chunks()
      .pipe(toArray()),
  );

const textOf = (chunks: readonly ChatChunk[]): string =>
  chunks.flatMap((c) => (c.type === 'text-delta' ? [c.text] : [])).join('');

const handOver: MockRound = {
  text: 'One moment.',
  toolCalls: [{ name: 'transfer_to_billing', arguments: {} }],
  usage: { inputTokens: 10, outputTokens: 3 },
};

function billingAgent(rounds: MockRound[]) {
  const model = MockChatModel.script(rounds);
  const client = ChatClient.builder(model).defaultSystem('You are billing.').build();
  return { model, client };
}

describe('HandoffAdvisor', () => {
  it('hands the rest of the turn to the target: who speaks, its text, the usage of both', async () => {
    const billing = billingAgent([
      { text: 'Your refund is on its way.', usage: { inputTokens: 7, outputTokens: 6 } },
    ]);
    const triageModel = MockChatModel.script([handOver]);
    const triage = ChatClient.builder(triageModel)
      .defaultSystem('You are triage.')
      .defaultAdvisors(
        new HandoffAdvisor({
          handoffs: [
            { client: billing.client, name: 'transfer_to_billing', description: 'Refunds' },
          ],
        }),
      )
      .build();

    const chunks = await chunksOf(triage, 'Where is my refund?');

    expect(triageModel.requests[0].tools.map((t) => t.name)).toEqual(['transfer_to_billing']);
    expect(billing.model.requests[0].messages).toEqual([
      { role: 'system', content: 'You are billing.' },
      { role: 'user', content: 'Where is my refund?' },
    ]);
    const speaker = chunks.findIndex((c) => c.type === 'data');
    expect(chunks[speaker]).toEqual({
      type: 'data',
      name: 'agent',
      data: { name: 'transfer_to_billing', path: ['transfer_to_billing'] },
    });
    expect(textOf(chunks.slice(0, speaker))).toBe('One moment.');
    expect(textOf(chunks.slice(speaker))).toBe('Your refund is on its way.');
    expect(chunks.filter((c) => c.type === 'finish')).toEqual([{ type: 'finish', reason: 'stop' }]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    const usage = chunks.flatMap((c) => (c.type === 'usage' ? [c.usage] : []));
    expect(usage).toEqual([
      expect.objectContaining({ inputTokens: 10, outputTokens: 3 }),
      expect.objectContaining({ inputTokens: 7, outputTokens: 6 }),
    ]);
  });

  it('records the whole turn under the same conversation', async () => {
    const chatMemory = new MessageWindowChatMemory();
    const billing = billingAgent([{ text: 'Refunded.' }, { text: 'You are welcome.' }]);
    const triageModel = MockChatModel.script([handOver, handOver]);
    const triage = ChatClient.builder(triageModel)
      .defaultAdvisors(
        new MessageChatMemoryAdvisor({ chatMemory }),
        new HandoffAdvisor({
          handoffs: [
            { client: billing.client, name: 'transfer_to_billing', description: 'Refunds' },
          ],
        }),
      )
      .build();

    await chunksOf(triage, 'Refund please', 'c1');
    // One turn: the user's message and one answer, the handing agent's preamble then the
    // target's text.
    expect(await chatMemory.get('c1')).toEqual([
      { role: 'user', content: 'Refund please' },
      { role: 'assistant', content: 'One moment.Refunded.' },
    ]);

    // The next turn starts from that conversation; billing sees its earlier answer.
    await chunksOf(triage, 'Thanks', 'c1');
    expect(billing.model.requests[1].messages).toEqual([
      { role: 'system', content: 'You are billing.' },
      { role: 'user', content: 'Refund please' },
      { role: 'assistant', content: 'One moment.Refunded.' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it("gives the target what the handoff's history filter keeps of the whole conversation", async () => {
    const seen: Message[][] = [];
    const billing = billingAgent([{ text: 'ok' }]);
    const triage = ChatClient.builder(MockChatModel.script([handOver]))
      .defaultSystem('You are triage.')
      .defaultAdvisors(
        new HandoffAdvisor({
          handoffs: [
            {
              client: billing.client,
              name: 'transfer_to_billing',
              description: 'Refunds',
              history: (messages) => {
                seen.push([...messages]);
                return messages.filter((m) => m.role === 'user');
              },
            },
          ],
        }),
      )
      .build();
    await chunksOf(triage, 'Refund');
    expect(seen[0].map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(billing.model.requests[0].messages).toEqual([
      { role: 'system', content: 'You are billing.' },
      { role: 'user', content: 'Refund' },
    ]);
  });

  it('changes nothing when the model does not hand over', async () => {
    const billing = billingAgent([]);
    const triage = ChatClient.builder(MockChatModel.script([{ text: 'I can help.' }]))
      .defaultAdvisors(
        new HandoffAdvisor({
          handoffs: [{ client: billing.client, name: 'transfer_to_billing', description: 'R' }],
        }),
      )
      .build();
    const chunks = await chunksOf(triage, 'Hi');
    expect(textOf(chunks)).toBe('I can help.');
    expect(chunks.some((c) => c.type === 'data')).toBe(false);
    expect(billing.model.requests).toHaveLength(0);
  });

  it('chains handoffs and stops past maxDepth with an AgentDepthError', async () => {
    const lastModel = MockChatModel.script([{ text: 'never' }]);
    const last = ChatClient.create(lastModel);
    const second = ChatClient.builder(
      MockChatModel.script([{ toolCalls: [{ name: 'to_last', arguments: {} }] }]),
    )
      .defaultAdvisors(
        new HandoffAdvisor({
          handoffs: [{ client: last, name: 'to_last', description: 'Last' }],
          maxDepth: 1,
        }),
      )
      .build();
    const first = ChatClient.builder(
      MockChatModel.script([{ toolCalls: [{ name: 'to_second', arguments: {} }] }]),
    )
      .defaultAdvisors(
        new HandoffAdvisor({ handoffs: [{ client: second, name: 'to_second', description: 'S' }] }),
      )
      .build();
    const error: unknown = await chunksOf(first, 'Hi').catch((e: unknown) => e);
    expect(AgentDepthError.isInstance(error)).toBe(true);
    expect((error as AgentDepthError).path).toEqual(['to_second', 'to_last']);
    expect(lastModel.requests).toHaveLength(0);
  });

  it('validates its options', () => {
    expect(() => new HandoffAdvisor({ handoffs: [] })).toThrow(InvalidOptionsError);
    expect(
      () =>
        new HandoffAdvisor({
          handoffs: [{ client: {} as ChatClient, name: 'x', description: 'x' }],
        }),
    ).toThrow(InvalidOptionsError);
  });
});
