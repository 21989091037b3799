import {
  InMemoryChatMemoryRepository,
  InvalidOptionsError,
  MessageWindowChatMemory,
  type Message,
} from '../../lib/index';
import { YieldingRepository } from './support/memory-test-kit';
import { chatMemoryRepositoryContract } from './support/chat-memory-repository-contract';
import { checkWindowEquivalence } from './support/window-equivalence';

const sys = (content: string): Message => ({ role: 'system', content });
const u = (content: string): Message => ({ role: 'user', content });
const a = (content: string): Message => ({ role: 'assistant', content });

describe('MessageWindowChatMemory', () => {
  it('appends, reads back and clears a conversation', async () => {
    const memory = new MessageWindowChatMemory();
    await memory.add('c1', [u('1'), a('1')]);
    await memory.add('c1', [u('2')]);
    expect(await memory.get('c1')).toEqual([u('1'), a('1'), u('2')]);
    await memory.clear('c1');
    expect(await memory.get('c1')).toEqual([]);
  });

  it('keeps 20 messages by default', async () => {
    const memory = new MessageWindowChatMemory();
    expect(memory.maxMessages).toBe(20);
    for (let i = 0; i < 15; i++) await memory.add('c1', [u(`q${i}`), a(`a${i}`)]);
    const kept = await memory.get('c1');
    expect(kept).toHaveLength(20);
    expect(kept[0]).toEqual(u('q5'));
    expect(kept[19]).toEqual(a('a14'));
  });

  it('keeps system messages, and replaces them when new ones are added', async () => {
    const memory = new MessageWindowChatMemory({ maxMessages: 4 });
    await memory.add('c1', [sys('old rules'), u('1'), a('1')]);
    await memory.add('c1', [u('2'), a('2')]);
    expect(await memory.get('c1')).toEqual([sys('old rules'), u('2'), a('2')]);
    await memory.add('c1', [sys('new rules'), u('3')]);
    expect(await memory.get('c1')).toEqual([sys('new rules'), u('2'), a('2'), u('3')]);
  });

  it('stores through the repository it is given, one write per add', async () => {
    const repository = new YieldingRepository();
    const memory = new MessageWindowChatMemory({ maxMessages: 3, repository });
    await memory.add('c1', [u('1'), a('1')]);
    await memory.add('c1', [u('2'), a('2')]);
    expect(repository.saves).toBe(2);
    expect(await repository.inner.findByConversationId('c1')).toEqual([u('2'), a('2')]);
  });

  it('reads after the writes queued before it', async () => {
    const memory = new MessageWindowChatMemory({ repository: new YieldingRepository() });
    const write = memory.add('c1', [u('1')]);
    const read = memory.get('c1');
    await write;
    expect(await read).toEqual([u('1')]);
  });

  it('does not write for an empty add', async () => {
    const repository = new YieldingRepository();
    await new MessageWindowChatMemory({ repository }).add('c1', []);
    expect(repository.saves).toBe(0);
  });

  it('does not share message objects with the caller', async () => {
    const memory = new MessageWindowChatMemory();
    const message = u('original');
    await memory.add('c1', [message]);
    message.content = 'changed';
    const [stored] = await memory.get('c1');
    stored.content = 'changed too';
    expect(await memory.get('c1')).toEqual([u('original')]);
  });

  it.each([[0], [-1], [2.5], [Number.NaN], ['20']])('rejects maxMessages %p', (maxMessages) => {
    expect(() => new MessageWindowChatMemory({ maxMessages: maxMessages as number })).toThrow(
      InvalidOptionsError,
    );
    expect(() => new MessageWindowChatMemory({ maxMessages: maxMessages as number })).toThrow(
      '"maxMessages"',
    );
  });

  it('gives each memory its own default repository: conversations never leak between memories', async () => {
    const first = new MessageWindowChatMemory();
    const second = new MessageWindowChatMemory();
    await first.add('c1', [u('only in the first')]);
    expect(await second.get('c1')).toEqual([]);
    expect(await first.get('c1')).toEqual([u('only in the first')]);
  });

  it('rejects a repository that is not one', () => {
    expect(
      () =>
        new MessageWindowChatMemory({ repository: { saveAll: () => Promise.resolve() } as never }),
    ).toThrow(/"repository".*findByConversationId/);
  });

  it('rejects a bad conversation id or message with InvalidOptionsError, as a rejected Promise', async () => {
    const memory = new MessageWindowChatMemory();
    await expect(memory.get('')).rejects.toThrow(InvalidOptionsError);
    await expect(memory.clear(undefined as never)).rejects.toThrow('"conversationId"');
    await expect(memory.add('c1', 'hello' as never)).rejects.toThrow('"messages"');
    await expect(
      memory.add('c1', [u('ok'), { role: 'robot', content: 'beep' } as never]),
    ).rejects.toThrow('"messages[1]"');
    await expect(memory.add('c1', [{ role: 'tool', content: 'no id' } as never])).rejects.toThrow(
      InvalidOptionsError,
    );
    expect(await memory.get('c1')).toEqual([]);
  });
});

describe('InMemoryChatMemoryRepository', () => {
  it('saves, replaces, lists and deletes conversations', async () => {
    const repository = new InMemoryChatMemoryRepository();
    await repository.saveAll('a', [u('1'), a('1')]);
    await repository.saveAll('b', [u('b')]);
    await repository.saveAll('a', [u('2')]);
    expect(await repository.findByConversationId('a')).toEqual([u('2')]);
    expect(await repository.findConversationIds()).toEqual(['a', 'b']);
    await repository.deleteByConversationId('a');
    expect(await repository.findConversationIds()).toEqual(['b']);
    await repository.saveAll('b', []);
    expect(await repository.findConversationIds()).toEqual([]);
    expect(await repository.findByConversationId('nobody')).toEqual([]);
  });

  it('keeps tool calls, tool results and their ids, as copies', async () => {
    const repository = new InMemoryChatMemoryRepository();
    const call: Message = {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 't1', name: 'getTime', arguments: '{}' }],
      reasoning: [{ text: 'hmm', signature: 's' }],
    };
    const result: Message = {
      role: 'tool',
      toolCallId: 't1',
      name: 'getTime',
      content: 'noon',
      isError: false,
    };
    await repository.saveAll('c1', [call, result]);
    if (call.role === 'assistant') call.toolCalls![0].id = 'mutated';
    expect(await repository.findByConversationId('c1')).toEqual([
      { ...call, toolCalls: [{ id: 't1', name: 'getTime', arguments: '{}' }] },
      result,
    ]);
  });
});

chatMemoryRepositoryContract(
  'InMemoryChatMemoryRepository',
  () => new InMemoryChatMemoryRepository(),
);

describe('InMemoryChatMemoryRepository over long histories', () => {
  // Hundreds of writes per conversation: the dropped messages are cut out of the array in
  // batches (after 64 and more), which short conversations never reach.
  it('reads and stores the same windows as the read-modify-write path over 400 writes', async () => {
    await checkWindowEquivalence(new InMemoryChatMemoryRepository(), 12, 400, 7);
  }, 60_000);

  it('keeps the whole history without keepLast, and finds the newest of it', async () => {
    const repository = new InMemoryChatMemoryRepository();
    await repository.saveAll('h', [sys('Be brief.')]);
    for (let i = 0; i < 300; i++) await repository.append('h', [u(`u${i}`), a(`a${i}`)]);
    const all = await repository.findByConversationId('h');
    expect(all).toHaveLength(601);
    expect(await repository.findLast('h', 2)).toEqual([sys('Be brief.'), u('u299'), a('a299')]);
    for (let i = 300; i < 400; i++)
      await repository.append('h', [u(`u${i}`), a(`a${i}`)], { keepLast: 5 });
    expect(await repository.findByConversationId('h')).toEqual([
      sys('Be brief.'),
      u('u398'),
      a('a398'),
      u('u399'),
      a('a399'),
    ]);
  });
});
