// The RunJournal contract, one suite run against every journal: in memory, SQLite, Redis
// and PostgreSQL. `create` gives a fresh, empty journal per test.
import {
  RunJournalError,
  type RunJournal,
  type RunJournalLimits,
  type RunKey,
  type RunRecord,
} from '../../../lib/run/index';
import { waitUntil } from '../../support/servers/free-port';
import { everyType, failureOf, numbered, sized, storedText } from './run-records';

/** A journal under test and what the suite needs to reach behind it. */
export interface RunJournalHarness {
  /** A fresh, empty journal (its own table, key prefix or instance). */
  readonly journal: RunJournal;
  /** A second journal on the same data (another connection where the store has them). */
  readonly other: RunJournal;
  /** Replaces the stored text of one record of a run, as a broken writer or a newer version would. */
  overwrite(key: RunKey, index: number, text: string): Promise<void>;
  /** Moves the journal's clock forward; absent when the store keeps time itself (then a short real TTL is polled). */
  readonly advance?: (ms: number) => void;
}

/** Makes a harness; `limits` are the journal's limits (every test gives a `ttlMs`). */
export type RunJournalFactory = (limits: RunJournalLimits) => Promise<RunJournalHarness>;

const TTL_MS = 1500;
const alice: RunKey = { owner: 'alice', runId: 'run-1' };
const bob: RunKey = { owner: 'bob', runId: 'run-1' };

/** The reason of a `RunJournalError` (fails the test for anything else). */
function reasonOf(error: unknown): string {
  expect(RunJournalError.isInstance(error)).toBe(true);
  return (error as RunJournalError).reason;
}

/**
 * Registers the contract tests for one journal.
 * @param name What the describe block is called.
 * @param create A fresh harness per test.
 */
export function runJournalContract(name: string, create: RunJournalFactory): void {
  describe(`${name} (RunJournal contract)`, () => {
    let harness: RunJournalHarness;
    let journal: RunJournal;
    const fresh = async (limits: RunJournalLimits = {}): Promise<RunJournalHarness> => {
      harness = await create({ ttlMs: 60 * 60 * 1000, ...limits });
      journal = harness.journal;
      return harness;
    };
    beforeEach(() => fresh());

    it('reads [] for an unknown run, and every record in append order, batch after batch', async () => {
      expect(await journal.read(alice)).toEqual([]);
      const records = everyType();
      expect(await journal.append(alice, records.slice(0, 3), 0)).toBe(3);
      expect(await journal.append(alice, records.slice(3, 4), 3)).toBe(4);
      expect(await journal.append(alice, records.slice(4), 4)).toBe(records.length);
      expect(await journal.read(alice)).toEqual(records);
      expect(await harness.other.read(alice)).toEqual(records);
    });

    it('returns the length for an empty batch and writes nothing', async () => {
      expect(await journal.append(alice, [], 0)).toBe(0);
      await journal.append(alice, [numbered('a', 0)], 0);
      expect(await journal.append(alice, [], 1)).toBe(1);
      expect(await journal.read(alice)).toEqual([numbered('a', 0)]);
    });

    it('refuses an append whose expected length is not the run’s (conflict), writing nothing', async () => {
      await journal.append(alice, [numbered('a', 0), numbered('a', 1)], 0);
      for (const expected of [0, 1, 3]) {
        const error = await failureOf(
          journal.append(alice, [numbered('late', expected)], expected),
        );
        expect(reasonOf(error)).toBe('conflict');
        expect(error).toMatchObject({ runId: 'run-1' });
      }
      expect(reasonOf(await failureOf(journal.append(bob, [numbered('b', 0)], 1)))).toBe(
        'conflict',
      );
      expect(await journal.read(alice)).toEqual([numbered('a', 0), numbered('a', 1)]);
      expect(await journal.read(bob)).toEqual([]);
    });

    it('lets exactly one of two writers with the same expected length win, whole', async () => {
      await journal.append(alice, [numbered('start', 0)], 0);
      for (let round = 0; round < 5; round += 1) {
        const length = (await journal.read(alice)).length;
        const one = [numbered('one', round), numbered('one', round + 100)];
        const two = [numbered('two', round), numbered('two', round + 100)];
        const results = await Promise.allSettled([
          journal.append(alice, one, length),
          harness.other.append(alice, two, length),
        ]);
        const won = results.filter((result) => result.status === 'fulfilled');
        const lost = results.filter((result) => result.status === 'rejected');
        expect(won).toEqual([{ status: 'fulfilled', value: length + 2 }]);
        expect(lost.map((result) => reasonOf(result.reason))).toEqual(['conflict']);
        const winner = results[0].status === 'fulfilled' ? one : two;
        expect((await journal.read(alice)).slice(length)).toEqual(winner);
      }
      expect(await journal.read(alice)).toHaveLength(11);
    });

    it('keeps runs per owner: another owner reads [] for the same run id and writes its own', async () => {
      await journal.append(alice, [numbered('alice', 0)], 0);
      expect(await journal.read(bob)).toEqual([]);
      expect(await journal.read({ owner: 'alice', runId: 'run-2' })).toEqual([]);
      expect(await journal.append(bob, [numbered('bob', 0), numbered('bob', 1)], 0)).toBe(2);
      expect(await journal.read(alice)).toEqual([numbered('alice', 0)]);
      await journal.delete(bob);
      expect(await journal.read(alice)).toEqual([numbered('alice', 0)]);
      // Owner and run id are kept apart, whatever characters they hold.
      const joined: RunKey = { owner: 'a:b', runId: 'c' };
      await journal.append(joined, [numbered('joined', 0)], 0);
      expect(await journal.read({ owner: 'a', runId: 'b:c' })).toEqual([]);
      expect(await journal.read({ owner: 'a\u0000b', runId: 'c' })).toEqual([]);
    });

    it('deletes a run (an unknown one is no error); the id can be written again from 0', async () => {
      await journal.delete({ owner: 'nobody', runId: 'none' });
      await journal.append(alice, [numbered('a', 0)], 0);
      await journal.append({ owner: 'alice', runId: 'run-2' }, [numbered('keep', 0)], 0);
      await journal.delete(alice);
      expect(await journal.read(alice)).toEqual([]);
      expect(await harness.other.read(alice)).toEqual([]);
      expect(await journal.append(alice, [numbered('again', 0)], 0)).toBe(1);
      expect(await journal.read(alice)).toEqual([numbered('again', 0)]);
      expect(await journal.read({ owner: 'alice', runId: 'run-2' })).toEqual([numbered('keep', 0)]);
    });

    describe('limits', () => {
      const refused = async (records: RunRecord[], expected: number): Promise<void> => {
        const before = await journal.read(alice);
        const error = await failureOf(journal.append(alice, records, expected));
        expect(reasonOf(error)).toBe('too-large');
        expect(error).toMatchObject({ runId: 'run-1' });
        expect(await journal.read(alice)).toEqual(before);
      };

      it('refuses a batch that passes maxRecords, writing none of it', async () => {
        await fresh({ maxRecords: 3 });
        await journal.append(alice, [numbered('a', 0), numbered('a', 1)], 0);
        await refused([numbered('a', 2), numbered('a', 3)], 2);
        expect(await journal.append(alice, [numbered('a', 2)], 2)).toBe(3);
        await refused([numbered('a', 3)], 3);
      });

      it('refuses a record over maxRecordBytes and a run over maxRunBytes, writing nothing', async () => {
        await fresh({ maxRecordBytes: 1000, maxRunBytes: 2500 });
        await refused([numbered('a', 0), sized(1200)], 0);
        expect(await journal.read(alice)).toEqual([]);
        await journal.append(alice, [sized(900), sized(900)], 0);
        await refused([numbered('a', 2), sized(900)], 2);
        expect(await journal.append(alice, [numbered('a', 2)], 2)).toBe(3);
      });
    });

    it('forgets a run its TTL after its last append (read [], then written again from 0)', async () => {
      const { advance } = await fresh({ ttlMs: TTL_MS });
      await journal.append(alice, [numbered('a', 0)], 0);
      expect(await journal.read(alice)).toEqual([numbered('a', 0)]);
      if (advance !== undefined) {
        advance(TTL_MS - 1);
        await journal.append(alice, [numbered('a', 1)], 1); // refreshes the TTL
        advance(TTL_MS - 1);
        expect(await journal.read(alice)).toHaveLength(2);
        advance(1);
      }
      await waitUntil('expiry', async () => (await journal.read(alice)).length === 0, 20_000);
      expect(await harness.other.read(alice)).toEqual([]);
      expect(await journal.append(alice, [numbered('b', 0)], 0)).toBe(1);
    }, 30_000);

    it('refuses a corrupt record with its index; other runs read as before', async () => {
      await journal.append(alice, everyType().slice(0, 3), 0);
      await journal.append(bob, everyType(), 0);
      for (const text of [
        '{not json',
        '[1,2]',
        storedText({ type: 'payment' }, numbered('x', 0)),
        storedText(
          { type: 'recursion-decision', advisor: 'e', attempt: 1, decision: {} },
          numbered('x', 0),
        ),
      ]) {
        await harness.overwrite(alice, 1, text);
        const error = await failureOf(journal.read(alice));
        expect(reasonOf(error)).toBe('corrupt-record');
        expect(error).toMatchObject({ runId: 'run-1', index: 1 });
        expect((error as Error).message).not.toContain('not json');
      }
      await harness.overwrite(alice, 1, storedText({}, everyType()[1]));
      await harness.overwrite(alice, 2, JSON.stringify({ v: 1, type: 'approval', delivered: 3 }));
      const error = await failureOf(journal.read(alice));
      expect(error).toMatchObject({ reason: 'corrupt-record', index: 2 });
      expect(await journal.read(bob)).toEqual(everyType());
    });

    it('refuses a record written by a newer format version, saying so', async () => {
      await journal.append(alice, [numbered('a', 0), numbered('a', 1)], 0);
      await harness.overwrite(alice, 1, storedText({ v: 2 }, numbered('a', 1)));
      const error = await failureOf(journal.read(alice));
      expect(reasonOf(error)).toBe('unsupported-version');
      expect(error).toMatchObject({ runId: 'run-1', index: 1 });
      expect((error as Error).message).toMatch(/format 2.*reads format 1/);
    });

    it('drops __proto__ keys, escaped or not, from what it reads', async () => {
      const parsed = JSON.parse('{"__proto__": {"polluted": true}}') as object;
      const started = { ...everyType()[0], ...parsed };
      await journal.append(alice, [started, numbered('a', 1)], 0);
      const escaped =
        '{"v":1,"type":"validation-retry","delivered":1,"attempt":3,"feedback":"a-1",';
      await harness.overwrite(alice, 1, `${escaped}"\\u005f_proto__":{"polluted":true}}`);
      const read = await journal.read(alice);
      expect(read).toEqual([everyType()[0], numbered('a', 1)]);
      for (const record of read) {
        expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
        expect(Object.prototype.hasOwnProperty.call(record, '__proto__')).toBe(false);
      }
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    });

    it('keeps media bytes as base64 (and URL and base64 media as they are)', async () => {
      const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
      const outcome = (data: object): RunRecord =>
        ({
          type: 'tool-outcome',
          delivered: 1,
          round: 1,
          message: {
            role: 'tool',
            toolCallId: 'c1',
            name: 'shot',
            content: 'Done.',
            media: [
              { mediaType: 'image/png', data },
              { mediaType: 'image/jpeg', data: { url: 'https://example.com/cat.jpg' } },
            ],
          },
        }) as RunRecord;
      await journal.append(alice, [outcome({ bytes })], 0);
      expect(await journal.read(alice)).toEqual([outcome({ base64: 'iVBORwD/' })]);
    });
  });
}
