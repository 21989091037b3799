import { lastValueFrom, NEVER, toArray } from 'rxjs';
import {
  ChatClient,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  Order,
  tool,
  ToolCallingAdvisor,
  type Message,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';
import { settle } from './support/memory-test-kit';

const system: Message = { role: 'system', content: 'Be brief.' };
const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });
const call = (id: string, city: string): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ id, name: 'getTime', arguments: JSON.stringify({ city }) }],
});
const result = (id: string, content: string): Message => ({
  role: 'tool',
  toolCallId: id,
  name: 'getTime',
  content,
});

const getTime = (
  execute: (city: string) => string | Promise<string> = (city) => `12:00 in ${city}`,
) =>
  tool({
    name: 'getTime',
    description: 'The current time in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }) => execute(city),
  });

/** Turn 1 asks for a tool then answers; turn 2 answers directly. */
const script = () =>
  MockChatModel.script([
    { toolCalls: [{ id: 't1', name: 'getTime', arguments: { city: 'Paris' } }] },
    { text: 'It is noon.' },
    { text: 'You asked about Paris.' },
  ]);

describe('MessageChatMemoryAdvisor with the tool loop', () => {
  describe('outside the loop (default order)', () => {
    it('loads history once and saves the user message and the final answer', async () => {
      const model = script();
      const chatMemory = new MessageWindowChatMemory();
      const client = ChatClient.builder(model)
        .defaultSystem('Be brief.')
        .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
        .defaultTools(getTime())
        .defaultAdvisorParams({ conversationId: 'c1' })
        .build();

      expect(await lastValueFrom(client.prompt('Time in Paris?').call().content())).toBe(
        'It is noon.',
      );
      await lastValueFrom(client.prompt('What did I ask?').call().content());

      // round 2 of turn 1: the loop's own history, no second copy of the memory
      expect(model.requests[1]?.messages).toEqual([
        system,
        user('Time in Paris?'),
        call('t1', 'Paris'),
        result('t1', '12:00 in Paris'),
      ]);
      expect(model.requests[2]?.messages).toEqual([
        system,
        user('Time in Paris?'),
        assistant('It is noon.'),
        user('What did I ask?'),
      ]);
    });

    it('also saves the loop’s tool messages with saveToolMessages, the preamble not repeated', async () => {
      const model = MockChatModel.script([
        {
          text: 'Let me check.',
          toolCalls: [{ id: 't1', name: 'getTime', arguments: { city: 'Paris' } }],
        },
        { text: ' It is noon.' },
        { text: 'Paris.' },
      ]);
      const chatMemory = new MessageWindowChatMemory();
      const client = ChatClient.builder(model)
        .defaultSystem('Be brief.')
        .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory, saveToolMessages: true }))
        .defaultTools(getTime())
        .defaultAdvisorParams({ conversationId: 'c1' })
        .build();

      const deltas = await lastValueFrom(
        client.prompt('Time in Paris?').stream().content().pipe(toArray()),
      );
      await lastValueFrom(client.prompt('Which city?').call().content());

      expect(deltas.join('')).toBe('Let me check. It is noon.');
      const turn: Message[] = [
        user('Time in Paris?'),
        { ...call('t1', 'Paris'), content: 'Let me check.' },
        result('t1', '12:00 in Paris'),
        assistant(' It is noon.'),
      ];
      expect(model.requests[2]?.messages).toEqual([system, ...turn, user('Which city?')]);
      expect((await chatMemory.get('c1')).slice(0, 4)).toEqual(turn);
    });

    it('saves a plain final answer even when tool events are streamed outbound', async () => {
      const model = script();
      const chatMemory = new MessageWindowChatMemory();
      const client = ChatClient.builder(model)
        .defaultAdvisors(
          new MessageChatMemoryAdvisor({ chatMemory }),
          new ToolCallingAdvisor({ emitToolEvents: true }),
        )
        .defaultTools(getTime())
        .build();

      const chunks = await lastValueFrom(
        client
          .prompt('Time in Paris?')
          .advisorParams({ conversationId: 'c1' })
          .stream()
          .chunks()
          .pipe(toArray()),
      );

      expect(chunks.some((chunk) => chunk.type === 'tool-call')).toBe(true);
      expect(await chatMemory.get('c1')).toEqual([
        user('Time in Paris?'),
        assistant('It is noon.'),
      ]);
    });

    it('keeps only the user message when a later round fails', async () => {
      const model = MockChatModel.script([
        { toolCalls: [{ id: 't1', name: 'getTime', arguments: { city: 'Paris' } }] },
        { text: 'It is', error: 'overloaded' },
      ]);
      const chatMemory = new MessageWindowChatMemory();
      const client = ChatClient.builder(model)
        .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory, saveToolMessages: true }))
        .defaultTools(getTime())
        .build();

      const error = await lastValueFrom(
        client.prompt('Time in Paris?').advisorParams({ conversationId: 'c1' }).call().content(),
      ).catch((e: unknown) => e);

      expect((error as Error).message).toBe('mock: overloaded');
      expect(await chatMemory.get('c1')).toEqual([user('Time in Paris?')]);
    });
  });

  describe('inside the loop (order after Order.TOOL_CALLING)', () => {
    const inside = (chatMemory: MessageWindowChatMemory) =>
      new MessageChatMemoryAdvisor({ chatMemory, order: Order.TOOL_CALLING + 10 });

    it('supplies the history every round and saves every round, tool calls included', async () => {
      const model = script();
      const chatMemory = new MessageWindowChatMemory();
      const seenByTool: Message[][] = [];
      const client = ChatClient.builder(model)
        .defaultSystem('Be brief.')
        .defaultAdvisors(inside(chatMemory))
        .defaultTools(
          getTime(async (city) => {
            seenByTool.push(await chatMemory.get('c1'));
            return `12:00 in ${city}`;
          }),
        )
        .defaultAdvisorParams({ conversationId: 'c1' })
        .build();

      expect(await lastValueFrom(client.prompt('Time in Paris?').call().content())).toBe(
        'It is noon.',
      );
      await lastValueFrom(client.prompt('What did I ask?').call().content());

      // round 1 was saved before the tool ran
      expect(seenByTool).toEqual([[user('Time in Paris?'), call('t1', 'Paris')]]);
      // the auto-registered loop sent [system, tool results]; the memory added the rest, once
      expect(model.requests[1]?.messages).toEqual([
        system,
        user('Time in Paris?'),
        call('t1', 'Paris'),
        result('t1', '12:00 in Paris'),
      ]);
      expect(model.requests[2]?.messages).toEqual([
        system,
        user('Time in Paris?'),
        call('t1', 'Paris'),
        result('t1', '12:00 in Paris'),
        assistant('It is noon.'),
        user('What did I ask?'),
      ]);
    });

    it('leaves no unanswered tool call in the next request after an abort while a tool runs', async () => {
      const model = MockChatModel.script([
        { toolCalls: [{ id: 't1', name: 'getTime', arguments: { city: 'Paris' } }] },
        { text: 'Hello again.' },
      ]);
      const chatMemory = new MessageWindowChatMemory();
      let started = false;
      const hanging = tool({
        name: 'getTime',
        description: 'Never answers',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        execute: () => {
          started = true;
          return NEVER;
        },
      });
      const client = ChatClient.builder(model)
        .defaultSystem('Be brief.')
        .defaultAdvisors(inside(chatMemory))
        .defaultAdvisorParams({ conversationId: 'c1' })
        .build();

      const subscription = client
        .prompt('Time in Paris?')
        .tools(hanging)
        .call()
        .content()
        .subscribe();
      while (!started) await settle();
      subscription.unsubscribe();
      expect(await chatMemory.get('c1')).toEqual([user('Time in Paris?'), call('t1', 'Paris')]);

      await lastValueFrom(client.prompt('Hi').call().content());
      expect(model.requests[1]?.messages).toEqual([system, user('Time in Paris?'), user('Hi')]);
    });
  });
});
