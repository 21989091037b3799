import { InvalidOptionsError } from '../../lib/index';
import { InMemoryRunJournal, type RunKey } from '../../lib/run/index';
import { runJournalContract } from './support/run-journal-contract';
import { numbered } from './support/run-records';

/** The journal's stored records (copies or texts), to stand in for a broken writer. */
const storedRecords = (journal: InMemoryRunJournal, key: RunKey): unknown[] => {
  const runs = (journal as unknown as { runs: Map<string, { records: unknown[] }> }).runs;
  const run = runs.get(JSON.stringify([key.owner, key.runId]));
  if (run === undefined) throw new Error('no such run');
  return run.records;
};

runJournalContract('InMemoryRunJournal', (limits) => {
  let now = 1_000_000;
  const journal = new InMemoryRunJournal({ ...limits, now: () => now });
  return Promise.resolve({
    journal,
    other: journal,
    overwrite: (key, index, text) => {
      storedRecords(journal, key)[index] = text;
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

  it('keeps owner and run id apart whatever characters they hold (NUL included)', async () => {
    const journal = new InMemoryRunJournal();
    await journal.append({ owner: 'a\u0000b', runId: 'c' }, [numbered('a', 0)], 0);
    expect(await journal.read({ owner: 'a', runId: 'b\u0000c' })).toEqual([]);
    expect(await journal.read({ owner: 'a\u0000b', runId: 'c' })).toEqual([numbered('a', 0)]);
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
