// The ChatMemoryRepository contract, one suite run against every repository: in-memory,
// SQLite, Redis and PostgreSQL. `create` gives a fresh, empty repository per test.
import {
  ChatMemoryError,
  ChatMemoryMediaLimitError,
  InvalidOptionsError,
  MessageWindowChatMemory,
  type ChatMemoryRepository,
  type Message,
} from '../../../lib/index';
import { messageWindow } from '../../../lib/memory/message-window';
import { checkWindowEquivalence } from './window-equivalence';

/** A conversation with every role, tool calls with ids, reasoning and an error result. */
export const everyRole: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Time in Paris and Tokyo? ünïcödé ✓ "quotes" \\ back' },
  {
    role: 'assistant',
    content: 'Checking.',
    toolCalls: [
      {
        id: 'call_a',
        name: 'getTime',
        arguments: '{"city":"Paris"}',
        // Kept for the provider (Gemini's thought signature must come back in later requests).
        providerMetadata: { google: { thoughtSignature: 'EqsFCqgF' } },
      },
      { id: 'call_b', name: 'getTime', arguments: '{"city":"Tokyo"}' },
    ],
    reasoning: [{ text: 'two cities', signature: 'sig' }],
  },
  { role: 'tool', toolCallId: 'call_a', name: 'getTime', content: '12:00' },
  { role: 'tool', toolCallId: 'call_b', name: 'getTime', content: 'unknown city', isError: true },
  { role: 'tool', toolCallId: 'call_c', name: 'getTime', content: 'fine', isError: false },
  { role: 'assistant', content: '' },
  { role: 'assistant', content: 'Noon in Paris; Tokyo failed.' },
];

/** Images and files on a user message and a tool result: by URL, base64 and bytes. */
export const withMedia = (): Message[] => [
  {
    role: 'user',
    content: 'What is on these?',
    media: [
      { mediaType: 'image/jpeg', data: { url: 'https://example.com/cat.jpg' } },
      { mediaType: 'application/pdf', data: { base64: 'JVBERi0xLjQK' }, filename: 'a.pdf' },
    ],
  },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'shot', arguments: '{}' }] },
  {
    role: 'tool',
    toolCallId: 'c1',
    name: 'shot',
    content: 'Done.',
    media: [{ mediaType: 'image/png', data: { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) } }],
  },
  { role: 'user', content: 'No media.', media: [] },
];

/** One user/assistant turn, named so that a test can tell whose and which it is. */
export const turn = (writer: string, index: number): Message[] => [
  { role: 'user', content: `${writer}-${index}` },
  { role: 'assistant', content: `${writer}-${index}-answer` },
];

/**
 * Checks that `messages` are whole turns made by `turn`: each user message is followed by
 * its own answer. Returns the turns' names in stored order.
 */
export function wholeTurns(messages: readonly Message[]): string[] {
  const names: string[] = [];
  for (let i = 0; i < messages.length; i += 2) {
    const user = messages[i];
    const answer = messages[i + 1];
    expect(user?.role).toBe('user');
    expect(answer).toEqual({ role: 'assistant', content: `${user?.content ?? ''}-answer` });
    names.push(user?.content ?? '');
  }
  return names;
}

/**
 * Registers the contract tests for one repository.
 * @param name What the describe block is called.
 * @param create A fresh, empty repository (called once per test).
 * @param shared Whether the repository is shared across processes (has `update`): adds
 *   the test of two memories without a common queue.
 */
export function chatMemoryRepositoryContract(
  name: string,
  create: () => ChatMemoryRepository | Promise<ChatMemoryRepository>,
  shared = false,
  createWithMediaLimit?: (
    maxMediaBytes: number,
  ) => ChatMemoryRepository | Promise<ChatMemoryRepository>,
  equivalence = { conversations: 150, steps: 30 },
): void {
  describe(`${name} (ChatMemoryRepository contract)`, () => {
    let repository: ChatMemoryRepository;
    beforeEach(async () => {
      repository = await create();
    });

    it('returns [] for an unknown conversation and lists nothing when empty', async () => {
      expect(await repository.findByConversationId('nobody')).toEqual([]);
      expect(await repository.findConversationIds()).toEqual([]);
    });

    it('stores every role, tool calls and results with their ids, in order', async () => {
      await repository.saveAll('c1', everyRole);
      expect(await repository.findByConversationId('c1')).toEqual(everyRole);
    });

    it('stores and restores images and files (URL, base64, bytes; user and tool messages)', async () => {
      await repository.saveAll('m', withMedia());
      const read = await repository.findByConversationId('m');
      expect(read).toEqual(withMedia());
      const bytes = read[2].role === 'tool' ? read[2].media?.[0]?.data : undefined;
      expect(bytes !== undefined && 'bytes' in bytes && bytes.bytes instanceof Uint8Array).toBe(
        true,
      );
    });

    it('hands out copies of media bytes: changing them after save or read changes nothing stored', async () => {
      const saved = withMedia();
      await repository.saveAll('m', saved);
      const data = saved[2].role === 'tool' ? saved[2].media?.[0]?.data : undefined;
      if (data !== undefined && 'bytes' in data) data.bytes[0] = 0;
      const read = await repository.findByConversationId('m');
      const readData = read[2].role === 'tool' ? read[2].media?.[0]?.data : undefined;
      if (readData !== undefined && 'bytes' in readData) readData.bytes[1] = 0;
      expect(await repository.findByConversationId('m')).toEqual(withMedia());
    });

    if (createWithMediaLimit !== undefined) {
      it('refuses a message whose inline media is over maxMediaBytes, writing nothing', async () => {
        const limited = await createWithMediaLimit(8);
        await limited.saveAll('m', [{ role: 'user', content: 'kept' }]);
        // 9 bytes inline (base64 of 9 bytes); the URL part counts nothing.
        const tooBig: Message = {
          role: 'user',
          content: 'big',
          media: [
            { mediaType: 'image/jpeg', data: { url: 'https://example.com/cat.jpg' } },
            { mediaType: 'application/pdf', data: { base64: 'JVBERi0xLjQKCg==' } },
          ],
        };
        const error: unknown = await limited
          .saveAll('m', [{ role: 'user', content: 'x' }, tooBig])
          .then(
            () => undefined,
            (failure: unknown) => failure,
          );
        expect(ChatMemoryMediaLimitError.isInstance(error)).toBe(true);
        expect(ChatMemoryError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ size: 10, limit: 8, position: 1, conversationId: 'm' });
        expect(await limited.findByConversationId('m')).toEqual([
          { role: 'user', content: 'kept' },
        ]);
        await limited.saveAll('m', [{ role: 'user', content: 'small', media: [tooBig.media![0]] }]);
        expect(await limited.findByConversationId('m')).toHaveLength(1);
        const appended: unknown = await limited.append!('m', [turn('m', 0)[0], tooBig]).then(
          () => undefined,
          (failure: unknown) => failure,
        );
        expect(ChatMemoryMediaLimitError.isInstance(appended)).toBe(true);
        expect(await limited.findByConversationId('m')).toHaveLength(1);
      });
    }

    it('hands out copies: changing what was saved or read changes nothing stored', async () => {
      const saved: Message[] = [{ role: 'user', content: 'original' }];
      await repository.saveAll('c1', saved);
      saved.push({ role: 'user', content: 'pushed after save' });
      const read = await repository.findByConversationId('c1');
      read.push({ role: 'user', content: 'pushed after read' });
      (read[0] as { content: string }).content = 'changed';
      expect(await repository.findByConversationId('c1')).toEqual([
        { role: 'user', content: 'original' },
      ]);
    });

    it('replaces a conversation on saveAll; an empty array leaves it empty and unlisted', async () => {
      await repository.saveAll('a', everyRole);
      await repository.saveAll('b', [{ role: 'user', content: 'b' }]);
      await repository.saveAll('a', [{ role: 'user', content: 'shorter' }]);
      expect(await repository.findByConversationId('a')).toEqual([
        { role: 'user', content: 'shorter' },
      ]);
      await repository.saveAll('a', []);
      expect(await repository.findByConversationId('a')).toEqual([]);
      expect(await repository.findConversationIds()).toEqual(['b']);
    });

    it('lists every stored conversation and deletes one without touching the others', async () => {
      for (const id of ['x', 'y', 'z']) await repository.saveAll(id, turn(id, 1));
      expect((await repository.findConversationIds()).sort()).toEqual(['x', 'y', 'z']);
      await repository.deleteByConversationId('y');
      await repository.deleteByConversationId('never-existed');
      expect((await repository.findConversationIds()).sort()).toEqual(['x', 'z']);
      expect(await repository.findByConversationId('y')).toEqual([]);
      expect(await repository.findByConversationId('x')).toEqual(turn('x', 1));
    });

    it('keeps 100 conversations written in parallel apart', async () => {
      const memory = new MessageWindowChatMemory({ maxMessages: 100, repository });
      const ids = Array.from({ length: 100 }, (_, i) => `conversation-${i}`);
      await Promise.all(ids.map((id) => memory.add(id, turn(id, 1))));
      await Promise.all(ids.map((id) => memory.add(id, turn(id, 2))));
      for (const id of ids) {
        expect(await repository.findByConversationId(id)).toEqual([...turn(id, 1), ...turn(id, 2)]);
      }
    });

    it('keeps every turn whole when one memory appends 20 turns to one conversation at once', async () => {
      const memory = new MessageWindowChatMemory({ maxMessages: 1000, repository });
      await Promise.all(Array.from({ length: 20 }, (_, i) => memory.add('busy', turn('w', i))));
      const names = wholeTurns(await repository.findByConversationId('busy'));
      expect(names).toEqual(Array.from({ length: 20 }, (_, i) => `w-${i}`));
    });

    it('keeps the window: the newest turns, cut on a turn boundary', async () => {
      const memory = new MessageWindowChatMemory({ maxMessages: 5, repository });
      await memory.add('w', [{ role: 'system', content: 'Be brief.' }]);
      for (let i = 0; i < 4; i++) await memory.add('w', turn('t', i));
      expect(await repository.findByConversationId('w')).toEqual([
        { role: 'system', content: 'Be brief.' },
        ...turn('t', 2),
        ...turn('t', 3),
      ]);
    });

    describe('append and findLast (the optional methods of long histories)', () => {
      const sys: Message = { role: 'system', content: 'Be brief.' };
      const call = (id: string): Message => ({
        role: 'assistant',
        content: '',
        toolCalls: [{ id, name: 'f', arguments: '{}' }],
      });
      const result = (id: string): Message => ({
        role: 'tool',
        toolCallId: id,
        name: 'f',
        content: 'r',
      });
      const append = (id: string, messages: Message[], keepLast?: number) =>
        repository.append!(id, messages, keepLast === undefined ? undefined : { keepLast });

      it('are both implemented', () => {
        expect(typeof repository.append).toBe('function');
        expect(typeof repository.findLast).toBe('function');
      });

      it('appends after the last message, every role and media kept, nothing dropped without keepLast', async () => {
        await append('a', everyRole.slice(1, 4));
        await append('a', everyRole.slice(4));
        await append('a', withMedia());
        expect(await repository.findByConversationId('a')).toEqual([
          ...everyRole.slice(1),
          ...withMedia(),
        ]);
        expect(await repository.findConversationIds()).toEqual(['a']);
        await repository.saveAll('b', everyRole);
        await append('b', turn('b', 1));
        expect(await repository.findByConversationId('b')).toEqual([...everyRole, ...turn('b', 1)]);
      });

      it('trims to keepLast as messageWindow over the stored and added messages, system messages kept', async () => {
        const stored: Message[] = [sys, ...turn('t', 0), call('c1'), result('c1')];
        const cases: [Message[], number][] = [
          [turn('t', 1), 5], // over: cut on the next user message
          [[call('c2'), result('c2'), result('c2'), { role: 'assistant', content: 'x' }], 4],
          [[result('c3'), result('c3')], 3], // no user in reach, only tool results: none kept
          [turn('t', 2), 100], // fits: nothing dropped
          [turn('t', 3), 1], // the system message alone fills the window
        ];
        for (const [index, [added, keepLast]] of cases.entries()) {
          const id = `trim-${index}`;
          await repository.saveAll(id, stored);
          await append(id, added, keepLast);
          const expected = messageWindow([...stored, ...added], keepLast);
          expect({ index, stored: await repository.findByConversationId(id) }).toEqual({
            index,
            stored: expected,
          });
        }
        // Only tool results in reach of the window: nothing is kept, not even a listing.
        await append('no-system', [...turn('n', 0), result('x'), result('y')], 2);
        expect(await repository.findByConversationId('no-system')).toEqual([]);
        expect(await repository.findConversationIds()).not.toContain('no-system');
      });

      it('finds the leading system messages and the newest `limit` others', async () => {
        const messages = [sys, ...turn('f', 0), ...turn('f', 1), ...withMedia()];
        await repository.saveAll('f', messages);
        expect(await repository.findLast!('f', 3)).toEqual([sys, ...messages.slice(-3)]);
        expect(await repository.findLast!('f', 0)).toEqual([sys]);
        expect(await repository.findLast!('f', 1000)).toEqual(messages);
        expect(await repository.findLast!('unknown', 5)).toEqual([]);
        await repository.saveAll('only-system', [sys]);
        expect(await repository.findLast!('only-system', 2)).toEqual([sys]);
        await append('plain', [...turn('p', 0), ...turn('p', 1)]);
        expect(await repository.findLast!('plain', 2)).toEqual(turn('p', 1));
      });

      it('refuses a system message, a bad keepLast or limit, writing nothing', async () => {
        await repository.saveAll('r', turn('r', 0));
        for (const bad of [
          () => append('r', [{ role: 'user', content: 'x' }, sys]),
          () => append('r', turn('r', 1), -1),
          () => append('r', turn('r', 1), 1.5),
          () => repository.findLast!('r', -1),
        ]) {
          const error: unknown = await bad().then(
            () => undefined,
            (failure: unknown) => failure,
          );
          expect(InvalidOptionsError.isInstance(error)).toBe(true);
        }
        expect(await repository.findByConversationId('r')).toEqual(turn('r', 0));
      });

      it('loses nothing when 20 appends to one conversation run at once, without a queue', async () => {
        await Promise.all(Array.from({ length: 20 }, (_, i) => append('busy', turn('w', i))));
        const names = wholeTurns(await repository.findByConversationId('busy'));
        expect([...names].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `w-${i}`).sort());
        await Promise.all(Array.from({ length: 20 }, (_, i) => append('kept', turn('k', i), 7)));
        // 7 messages over whole turns: the newest three turns, in the order they were stored.
        const kept = wholeTurns(await repository.findByConversationId('kept'));
        expect(kept).toHaveLength(3);
      });

      it('keeps the stored summary and system messages while appended turns push out old ones', async () => {
        const memory = new MessageWindowChatMemory({ maxMessages: 6, repository });
        const summary: Message = {
          role: 'system',
          content: '<conversation-summary>\nSummary: Ada likes tea.\n</conversation-summary>',
        };
        await memory.add('s', [sys, summary]);
        for (let i = 0; i < 10; i++) await memory.add('s', turn('s', i));
        expect(await memory.get('s')).toEqual([sys, summary, ...turn('s', 8), ...turn('s', 9)]);
      });

      it('reads and stores the same windows as the read-modify-write path, over random conversations', async () => {
        await checkWindowEquivalence(repository, equivalence.conversations, equivalence.steps);
      }, 120_000);
    });

    // Registered only for shared repositories: without `update`, the memory's in-process
    // queue is what serialises a conversation (the documented limit of the others).
    if (!shared) return;
    it('keeps every turn when two memories (no common queue) append to one conversation at once', async () => {
      expect(typeof repository.update).toBe('function');
      const one = new MessageWindowChatMemory({ maxMessages: 1000, repository });
      const two = new MessageWindowChatMemory({ maxMessages: 1000, repository });
      await Promise.all(
        Array.from({ length: 10 }, (_, i) => [
          one.add('shared', turn('one', i)),
          two.add('shared', turn('two', i)),
        ]).flat(),
      );
      const names = wholeTurns(await repository.findByConversationId('shared'));
      expect(names.filter((n) => n.startsWith('one-'))).toEqual(
        Array.from({ length: 10 }, (_, i) => `one-${i}`),
      );
      expect(names.filter((n) => n.startsWith('two-'))).toEqual(
        Array.from({ length: 10 }, (_, i) => `two-${i}`),
      );
    });
  });
}
