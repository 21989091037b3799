import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import {
  ChatClient,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  type ChatMemoryRepository,
  type Message,
} from '../../lib/index';
import { SqliteChatMemoryRepository } from '../../lib/memory/sqlite/index';
import { MockChatModel } from '../../lib/testing/index';
import {
  controlledModel,
  finish,
  settle,
  text,
  YieldingRepository,
} from './support/memory-test-kit';

const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });

describe('chat memory under concurrency', () => {
  let folder: string;
  const databases: Database.Database[] = [];
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'rx-advisors-concurrency-'));
  });
  afterAll(() => {
    for (const db of databases) db.close();
    rmSync(folder, { recursive: true, force: true });
  });
  const sqlite = (name: string): ChatMemoryRepository => {
    const database = new Database(join(folder, name));
    databases.push(database);
    return new SqliteChatMemoryRepository({ database });
  };

  describe.each([
    ['a yielding in-memory repository', () => new YieldingRepository()],
    ['SQLite', () => sqlite('two-streams.db')],
  ])('two streams on one conversation (%s)', (_name, repository) => {
    it('writes each turn whole, one after the other, and loses nothing', async () => {
      const { model, calls } = controlledModel();
      const chatMemory = new MessageWindowChatMemory({ repository: repository() });
      const client = ChatClient.builder(model)
        .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
        .defaultAdvisorParams({ conversationId: 'shared' })
        .build();
      const a = lastValueFrom(client.prompt('question A').stream().content().pipe(toArray()));
      const b = lastValueFrom(client.prompt('question B').stream().content().pipe(toArray()));
      while (calls.length < 2) await settle();
      const [callA, callB] = [calls[0], calls[1]];

      callA.next(text('answer '));
      callB.next(text('answer '));
      callB.next(text('B'));
      callA.next(text('A'));
      // Both complete in the same tick: their writes race unless serialised.
      callB.next(finish);
      callB.complete();
      callA.next(finish);
      callA.complete();

      expect(await a).toEqual(['answer ', 'A']);
      expect(await b).toEqual(['answer ', 'B']);
      expect(await chatMemory.get('shared')).toEqual([
        user('question B'),
        assistant('answer B'),
        user('question A'),
        assistant('answer A'),
      ]);
    });
  });

  it('serialises 50 simultaneous adds on one conversation without losing one', async () => {
    const chatMemory = new MessageWindowChatMemory({
      maxMessages: 100,
      repository: new YieldingRepository(),
    });
    await Promise.all(Array.from({ length: 50 }, (_, i) => chatMemory.add('c1', [user(`m${i}`)])));
    expect(await chatMemory.get('c1')).toEqual(Array.from({ length: 50 }, (_, i) => user(`m${i}`)));
  });

  describe.each([
    ['a yielding in-memory repository', () => new YieldingRepository()],
    ['SQLite', () => sqlite('thousand.db')],
  ])('1,000 conversations in parallel (%s)', (_name, repository) => {
    it('never shows one conversation another conversation’s messages', async () => {
      const model = MockChatModel.respond((request) => ({
        text: `echo ${request.lastUserText ?? ''}`,
      }));
      const chatMemory = new MessageWindowChatMemory({ repository: repository() });
      const client = ChatClient.builder(model)
        .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
        .build();
      const ids = Array.from({ length: 1000 }, (_, i) => `conv-${i}`);
      const turn = (id: string, n: number) =>
        lastValueFrom(
          client.prompt(`${id} turn ${n}`).advisorParams({ conversationId: id }).call().content(),
        );

      await Promise.all(ids.map(async (id) => turn(id, 1).then(() => turn(id, 2))));

      expect(model.calls).toBe(2000);
      const mixed = model.requests.filter(
        (request) =>
          new Set(request.messages.map((m) => /conv-\d+/.exec(m.content)?.[0])).size !== 1,
      );
      expect(mixed).toEqual([]);
      const stored = await Promise.all(ids.map((id) => chatMemory.get(id)));
      expect(stored).toEqual(
        ids.map((id) => [
          user(`${id} turn 1`),
          assistant(`echo ${id} turn 1`),
          user(`${id} turn 2`),
          assistant(`echo ${id} turn 2`),
        ]),
      );
    }, 60_000);
  });
});
