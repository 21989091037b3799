import { InvalidOptionsError } from '../../lib/index';
import { InMemoryRunJournal, type RunKey, type RunRecord } from '../../lib/run/index';
import { runJournalContract } from './support/run-journal-contract';
import { failureOf, numbered } from './support/run-records';

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

  describe('copies and byte limits', () => {
    const key: RunKey = { owner: 'o', runId: 'r' };
    /** The UTF-8 size of a record's stored text in a shared store (what the limits count). */
    const bytesOf = (record: RunRecord): number =>
      Buffer.byteLength(`{"v":1,${JSON.stringify(record).slice(1)}`);
    /** Characters JSON escapes or writes in more than one byte, and a lone surrogate. */
    const awkward = (content: string): RunRecord => ({
      type: 'tool-outcome',
      delivered: 1,
      round: 1,
      message: { role: 'tool', toolCallId: 'c"1', name: 'n\\', content },
    });

    it('reads what a shared store would give back, whatever the caller or a reader changes', async () => {
      const journal = new InMemoryRunJournal();
      const record = awkward('é ✓ 😀 \u0001 "q" \ud800');
      const message = (record as { message: { content: string } }).message;
      await journal.append(key, [record], 0);
      message.content = 'changed by the caller';
      const [read] = await journal.read(key);
      expect(read).toEqual(JSON.parse(JSON.stringify(awkward('é ✓ 😀 \u0001 "q" \ud800'))));
      (read as { message: { content: string } }).message.content = 'changed by a reader';
      expect((await journal.read(key))[0]).toEqual(
        JSON.parse(JSON.stringify(awkward('é ✓ 😀 \u0001 "q" \ud800'))),
      );
    });

    it('keeps what JSON would change as JSON does (undefined members, a Date)', async () => {
      const journal = new InMemoryRunJournal();
      const odd = {
        type: 'validation-retry',
        delivered: 0,
        attempt: 1,
        feedback: 'f',
        missing: undefined,
        at: new Date(0),
      } as unknown as RunRecord;
      await journal.append(key, [odd], 0);
      expect(await journal.read(key)).toEqual([JSON.parse(JSON.stringify(odd))]);
      expect(Object.keys((await journal.read(key))[0])).not.toContain('missing');
    });

    it('refuses exactly where a shared store does: maxRecordBytes and maxRunBytes to the byte', async () => {
      const record = awkward(`${'é✓"\u0001'.repeat(50)}😀\udfff`);
      const size = bytesOf(record);
      const fits = new InMemoryRunJournal({ maxRecordBytes: size, maxRunBytes: 2 * size });
      expect(await fits.append(key, [record], 0)).toBe(1);
      expect(await fits.append(key, [record], 1)).toBe(2);
      const error = await failureOf(fits.append(key, [numbered('a', 0)], 2));
      expect(error).toMatchObject({ reason: 'too-large' });
      const tight = new InMemoryRunJournal({ maxRecordBytes: size - 1 });
      expect(await failureOf(tight.append(key, [record], 0))).toMatchObject({
        reason: 'too-large',
      });
      const run = new InMemoryRunJournal({ maxRunBytes: 2 * size - 1 });
      expect(await run.append(key, [record], 0)).toBe(1);
      expect(await failureOf(run.append(key, [record], 1))).toMatchObject({ reason: 'too-large' });
      expect(await run.read(key)).toHaveLength(1);
    });
  });
});
