import { InvalidOptionsError } from '../../lib/index';
import { InMemoryRunJournal, type RunKey, type RunRecord } from '../../lib/run/index';
import { runJournalContract } from './support/run-journal-contract';
import { APPEND_NOW } from '../../lib/run/sync-append';
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

  describe("the durable run's synchronous append (records handed over, kept as they are)", () => {
    const key: RunKey = { owner: 'o', runId: 'r' };
    const handOver = (journal: InMemoryRunJournal, records: RunRecord[], length: number) =>
      journal[APPEND_NOW](key, records, length);
    const thrown = (run: () => unknown): unknown => {
      try {
        run();
      } catch (error) {
        return error;
      }
      throw new Error('nothing thrown');
    };

    it('refuses exactly where a shared store does, counted on the text it does not keep', async () => {
      const record = awkward(`${'é✓"\u0001'.repeat(50)}😀\udfff`);
      const size = bytesOf(record);
      // The bound is far above the size (6 bytes per unit): the exact count decides.
      const fits = new InMemoryRunJournal({ maxRecordBytes: size, maxRunBytes: 2 * size });
      expect(handOver(fits, [record], 0)).toBe(1);
      expect(handOver(fits, [record], 1)).toBe(2);
      expect(thrown(() => handOver(fits, [numbered('a', 0)], 2))).toMatchObject({
        reason: 'too-large',
      });
      const tight = new InMemoryRunJournal({ maxRecordBytes: size - 1 });
      expect(thrown(() => handOver(tight, [record], 0))).toMatchObject({ reason: 'too-large' });
      const run = new InMemoryRunJournal({ maxRunBytes: 2 * size - 1 });
      expect(handOver(run, [record], 0)).toBe(1);
      expect(thrown(() => handOver(run, [record], 1))).toMatchObject({ reason: 'too-large' });
      // Nothing else lost: the run keeps its record, and a smaller append still fits.
      expect(await run.read(key)).toEqual([JSON.parse(JSON.stringify(record))]);
    });

    it('counts a run written both ways exactly at the limit (texts and records)', async () => {
      const record = awkward('✓'.repeat(100));
      const size = bytesOf(record);
      const journal = new InMemoryRunJournal({ maxRunBytes: 3 * size });
      expect(await journal.append(key, [record], 0)).toBe(1);
      expect(handOver(journal, [record], 1)).toBe(2);
      expect(await journal.append(key, [record], 2)).toBe(3);
      expect(thrown(() => handOver(journal, [numbered('a', 0)], 3))).toMatchObject({
        reason: 'too-large',
      });
      expect(await journal.read(key)).toHaveLength(3);
    });

    it('reads copies, as a shared store gives them back (bytes as base64, Dates as text)', async () => {
      const journal = new InMemoryRunJournal();
      const bytes = new Uint8Array([1, 2, 250]);
      const media = {
        type: 'tool-outcome',
        delivered: 0,
        round: 1,
        message: {
          role: 'tool',
          toolCallId: 'c1',
          name: 'shot',
          content: 'a picture',
          media: [{ type: 'image', mediaType: 'image/png', data: { bytes } }],
        },
      } as unknown as RunRecord;
      const dated = { ...numbered('a', 1), at: new Date(0) } as unknown as RunRecord;
      handOver(journal, [media, dated], 0);
      const other = new InMemoryRunJournal();
      await other.append(key, [media, dated], 0);
      const read = await journal.read(key);
      expect(read).toEqual(await other.read(key));
      expect(JSON.stringify(read)).toContain('"base64"');
      (read[0] as { message: { content: string } }).message.content = 'changed by a reader';
      expect(await journal.read(key)).toEqual(await other.read(key));
    });

    it('refuses what JSON refuses, as append does, and keeps nothing of it', async () => {
      const journal = new InMemoryRunJournal();
      const big = { ...numbered('a', 0), count: 1n } as unknown as RunRecord;
      expect(thrown(() => handOver(journal, [big], 0))).toBeInstanceOf(TypeError);
      const cyclic = { ...numbered('a', 0) } as unknown as Record<string, unknown>;
      cyclic['self'] = cyclic;
      const refused = await failureOf(
        new InMemoryRunJournal().append(key, [cyclic as unknown as RunRecord], 0),
      );
      expect(thrown(() => handOver(journal, [cyclic as unknown as RunRecord], 0))).toBeInstanceOf(
        (refused as Error).constructor,
      );
      expect(await journal.read(key)).toEqual([]);
    });
  });
});
