import { lastValueFrom, toArray } from 'rxjs';
import { ChatClient } from '../../../lib/client/chat-client';
import type { ChatChunk } from '../../../lib/core/chat-chunk';
import { InMemoryRunJournal } from '../../../lib/run/in-memory-run-journal';
import { DurableRunAdvisor } from '../../../lib/run/durable/durable-run-advisor';
import type { RunJournal } from '../../../lib/run/run-journal';
import { MockChatModel } from '../../../lib/testing/mock-chat-model';
import { ToolCallingAdvisor } from '../../../lib/tools/tool-calling-advisor';
import { tool } from '../../../lib/tools/tool-fn';
import { CrashingJournal } from './support/crashing-journal';

// Which records ride together: the outcome of an idempotent tool waits for the run's next
// append (the next model round's), the outcome of a tool that is not idempotent is written
// before the loop goes on. Every model call, tool run and append goes into one log, in order.

const owner = 'user-1';
const CITY = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

/** Round 1 books (not idempotent), round 2 searches (idempotent), round 3 answers. */
function setUp(journal: RunJournal, log: string[], options: { approveBook?: boolean } = {}) {
  const model = MockChatModel.respond((request) => {
    const round = request.messages.filter((m) => m.role === 'assistant').length + 1;
    log.push(`model(${round})`);
    if (round === 1) {
      return { toolCalls: [{ id: 'c-book', name: 'book', arguments: { city: 'Oslo' } }] };
    }
    if (round === 2) {
      return { toolCalls: [{ id: 'c-search', name: 'search', arguments: { city: 'Oslo' } }] };
    }
    const results = request.messages.flatMap((m) => (m.role === 'tool' ? [m.content] : []));
    return { text: `Done: ${results.join('; ')}.` };
  });
  const run = (name: string) => () => {
    log.push(`ran ${name}`);
    return `${name} ok`;
  };
  const tools = [
    tool({ name: 'book', description: 'Books', parameters: CITY, execute: run('book') }),
    tool({
      name: 'search',
      description: 'Searches',
      parameters: CITY,
      idempotent: true,
      execute: run('search'),
    }),
  ];
  const logged: RunJournal = {
    append: (key, records, expected) => {
      log.push(`append ${records.map((r) => r.type).join(' + ')}`);
      return journal.append(key, records, expected);
    },
    read: (key) => journal.read(key),
    delete: (key) => journal.delete(key),
  };
  const client = ChatClient.builder(model)
    .defaultAdvisors(
      new DurableRunAdvisor({ journal: logged }),
      new ToolCallingAdvisor(options.approveBook === true ? { approve: () => true } : {}),
    )
    .defaultTools(...tools)
    .build();
  return { client, model };
}

const textOf = (chunks: readonly ChatChunk[]): string =>
  chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.text : '')).join('');

function stream(client: ChatClient, question: string | null): Promise<ChatChunk[]> {
  const prompt = question === null ? client.prompt() : client.prompt(question);
  return lastValueFrom(
    prompt.advisorParams({ runId: 'r1', runOwner: owner }).stream().chunks().pipe(toArray()),
  );
}

describe('DurableRunAdvisor: which records ride together', () => {
  it("writes a side effect's outcome before the next model call, an idempotent one with the next round", async () => {
    const log: string[] = [];
    const { client } = setUp(new InMemoryRunJournal(), log);
    expect(textOf(await stream(client, 'Book and search.'))).toBe('Done: book ok; search ok.');
    expect(log).toEqual([
      'append run-started',
      'model(1)',
      'append model-round',
      'append tool-call-started',
      'ran book',
      // Durable before the loop goes on: the next model call comes after it.
      'append tool-outcome',
      'model(2)',
      'append model-round',
      'ran search',
      // No append of its own: the outcome rides with round 3's.
      'model(3)',
      // Round 3 has no tool calls: it ends the loop, and rides with run-ended.
      'append tool-outcome + model-round + run-ended',
    ]);
  });

  it('after a crash at the append that carries an idempotent outcome, re-runs only that tool', async () => {
    const journal = new InMemoryRunJournal();
    const log: string[] = [];
    // Appends: run-started, round 1, book started, book's outcome, round 2, then the 6th
    // (search's outcome with round 3 and run-ended) fails: the process "dies" there.
    const first = setUp(new CrashingJournal(journal, 6), log);
    await expect(stream(first.client, 'Book and search.')).rejects.toThrow('crashed');
    expect(log.filter((line) => !line.startsWith('append'))).toEqual([
      'model(1)',
      'ran book',
      'model(2)',
      'ran search',
      'model(3)',
    ]);
    const records = await journal.read({ owner, runId: 'r1' });
    expect(records.map((r) => r.type)).toEqual([
      'run-started',
      'model-round',
      'tool-call-started',
      'tool-outcome',
      'model-round',
    ]);
    const again: string[] = [];
    const resumed = setUp(journal, again);
    expect(textOf(await stream(resumed.client, null))).toBe('Done: book ok; search ok.');
    // Rounds 1 and 2 and the booking come from the journal; the search runs again, and
    // round 3 (in flight at the crash) is asked again.
    expect(again.filter((line) => !line.startsWith('append'))).toEqual(['ran search', 'model(3)']);
  });
});
