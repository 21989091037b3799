import Database from 'better-sqlite3';
import { RunJournalError } from '../../../lib/errors/run-journal-error';
import { RunWriter } from '../../../lib/run/durable/run-writer';
import { InMemoryRunJournal } from '../../../lib/run/in-memory-run-journal';
import type { RunJournal } from '../../../lib/run/run-journal';
import type { RunRecord } from '../../../lib/run/run-record';
import { SqliteRunJournal } from '../../../lib/run/sqlite/sqlite-run-journal';

const key = { owner: 'o', runId: 'r1' };
const started: RunRecord = { type: 'run-started', delivered: 0, messages: [] };
const outcome: RunRecord = {
  type: 'tool-outcome',
  delivered: 0,
  round: 1,
  message: { role: 'tool', toolCallId: 'c1', name: 'search', content: 'ok' },
};
const ended: RunRecord = { type: 'run-ended', delivered: 0, outcome: 'completed' };

describe('RunWriter with a journal that appends synchronously', () => {
  const stores: [string, () => { journal: RunJournal; close(): void }][] = [
    ['in memory', () => ({ journal: new InMemoryRunJournal(), close: () => undefined })],
    [
      'SQLite',
      () => {
        const database = new Database(':memory:');
        return { journal: new SqliteRunJournal({ database }), close: () => database.close() };
      },
    ],
  ];

  it.each(stores)(
    '%s: writes on the spot, held records first, with no Promise',
    async (_, open) => {
      const { journal, close } = open();
      const writer = new RunWriter(journal, key, 0);
      expect(writer.write([started])).toBeUndefined();
      writer.hold(outcome);
      expect(writer.write([ended])).toBeUndefined();
      expect(await journal.read(key)).toEqual([started, outcome, ended]);
      close();
    },
  );

  it('in memory: a failed append is thrown, and every later one fails with it', async () => {
    const journal = new InMemoryRunJournal();
    await journal.append(key, [started], 0); // another instance wrote first
    const writer = new RunWriter(journal, key, 0);
    let first: unknown;
    try {
      void writer.write([started]);
    } catch (error) {
      first = error;
    }
    expect(RunJournalError.isInstance(first) && first.reason).toBe('conflict');
    expect(() => writer.write([ended])).toThrow(first as Error);
    await expect(writer.append(ended)).rejects.toBe(first);
    expect(await journal.read(key)).toEqual([started]);
  });
});

describe('RunWriter with a journal that appends asynchronously', () => {
  it('chains the appends in order through Promises', async () => {
    const memory = new InMemoryRunJournal();
    // A wrapper without the synchronous append: the Promise path.
    const journal: RunJournal = {
      append: (k, records, expected) => memory.append(k, records, expected),
      read: (k) => memory.read(k),
      delete: (k) => memory.delete(k),
    };
    const writer = new RunWriter(journal, key, 0);
    const first = writer.write([started]);
    expect(first).toBeInstanceOf(Promise);
    writer.hold(outcome);
    const second = writer.append(ended);
    await Promise.all([first, second]);
    expect(await memory.read(key)).toEqual([started, outcome, ended]);
  });
});
