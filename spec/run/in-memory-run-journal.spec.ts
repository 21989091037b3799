import { InvalidOptionsError } from '../../lib/index';
import { InMemoryRunJournal, type RunKey } from '../../lib/run/index';
import { runJournalContract } from './support/run-journal-contract';
import { numbered } from './support/run-records';

/** The journal's stored texts, to stand in for a broken writer. */
const storedTexts = (journal: InMemoryRunJournal, key: RunKey): string[] => {
  const runs = (journal as unknown as { runs: Map<string, { texts: string[] }> }).runs;
  const run = runs.get(`${key.owner}\u0000${key.runId}`);
  if (run === undefined) throw new Error('no such run');
  return run.texts;
};

runJournalContract('InMemoryRunJournal', (limits) => {
  let now = 1_000_000;
  const journal = new InMemoryRunJournal({ ...limits, now: () => now });
  return Promise.resolve({
    journal,
    other: journal,
    overwrite: (key, index, text) => {
      storedTexts(journal, key)[index] = text;
      return Promise.resolve();
    },
    advance: (ms) => {
      now += ms;
    },
  });
});

describe('InMemoryRunJournal', () => {
  it('validates its options', () => {
    expect(() => new InMemoryRunJournal({ maxRecords: 0 })).toThrow(InvalidOptionsError);
    expect(() => new InMemoryRunJournal({ ttlMs: 1.5 })).toThrow(/ttlMs/);
    expect(() => new InMemoryRunJournal({ maxRuns: -1 })).toThrow(/maxRuns/);
  });

  it('forgets the least recently written run past maxRuns', async () => {
    const journal = new InMemoryRunJournal({ maxRuns: 2 });
    const key = (runId: string): RunKey => ({ owner: 'o', runId });
    await journal.append(key('a'), [numbered('a', 0)], 0);
    await journal.append(key('b'), [numbered('b', 0)], 0);
    await journal.append(key('a'), [numbered('a', 1)], 1);
    await journal.append(key('c'), [numbered('c', 0)], 0);
    expect(await journal.read(key('b'))).toEqual([]);
    expect(await journal.read(key('a'))).toHaveLength(2);
    expect(await journal.read(key('c'))).toHaveLength(1);
  });
});
