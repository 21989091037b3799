import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import {
  appendConflict,
  checkAppendLimits,
  recordSizes,
  RUN_JOURNAL_LIMIT_DEFAULTS,
  RUN_JOURNAL_LIMIT_RULES,
} from './journal-limits.js';
import type { RunJournal, RunJournalLimits } from './run-journal.js';
import type { RunKey } from './run-key.js';
import type { RunRecord } from './run-record.js';
import { decodeRunRecord, encodeRunRecord } from './run-record-codec.js';
import { APPEND_NOW } from './sync-append.js';

/**
 * Options of {@link InMemoryRunJournal}.
 *
 * @example
 * ```ts
 * import type { InMemoryRunJournalOptions } from 'rx-advisors/run';
 * const options: InMemoryRunJournalOptions = { maxRuns: 100, ttlMs: 60_000 };
 * ```
 */
export interface InMemoryRunJournalOptions extends RunJournalLimits {
  /** Runs kept at once, all owners together; one more forgets the least recently written. Default 10,000. */
  readonly maxRuns?: number;
  /** The clock, in milliseconds (tests move it to expire runs). Default `Date.now`. */
  readonly now?: () => number;
}

const DEFAULTS = { ...RUN_JOURNAL_LIMIT_DEFAULTS, maxRuns: 10_000, now: Date.now };

const RULES: OptionRules<InMemoryRunJournalOptions> = {
  ...RUN_JOURNAL_LIMIT_RULES,
  maxRuns: Rules.integer(1),
  now: Rules.func,
};

interface StoredRun {
  readonly texts: string[];
  bytes: number;
  expiresAt: number;
}

/**
 * A {@link RunJournal} in this process's memory: for tests and single-instance servers.
 * Records are kept as the text a shared store would keep (a resumed run reads copies, and
 * the codec's checks run here too). A run survives a crash only in a shared store: use
 * `SqliteRunJournal`, `RedisRunJournal` or `PostgresRunJournal` in production.
 *
 * @example
 * ```ts partial
 * import { InMemoryRunJournal } from 'rx-advisors/run';
 *
 * const journal = new InMemoryRunJournal({ ttlMs: 60 * 60 * 1000 });
 * await journal.append({ owner: 'user-1', runId: 'r1' }, [{ type: 'run-started', delivered: 0, messages: [] }], 0);
 * ```
 */
export class InMemoryRunJournal implements RunJournal {
  private readonly options: Required<InMemoryRunJournalOptions>;
  /** By `[owner, runId]` as JSON, least recently written first (Map order). */
  private readonly runs = new Map<string, StoredRun>();
  private lastKey:
    { readonly owner: string; readonly runId: string; readonly id: string } | undefined;

  /** @param options Limits, the count of runs kept, the clock. */
  constructor(options?: InMemoryRunJournalOptions) {
    this.options = withDefaults(DEFAULTS, validateOptions(options, RULES));
  }

  /** @inheritDoc */
  append(key: RunKey, records: readonly RunRecord[], expectedLength: number): Promise<number> {
    return new Promise((resolve) => resolve(this.appendNow(key, records, expectedLength)));
  }

  /** The durable run's writer appends here without a Promise. @internal */
  [APPEND_NOW](key: RunKey, records: readonly RunRecord[], expectedLength: number): number {
    return this.appendNow(key, records, expectedLength);
  }

  /** @inheritDoc */
  read(key: RunKey): Promise<readonly RunRecord[]> {
    return new Promise((resolve) => {
      const texts = this.live(mapKey(key))?.texts ?? [];
      resolve(texts.map((text, index) => decodeRunRecord(text, { runId: key.runId, index })));
    });
  }

  /** @inheritDoc */
  delete(key: RunKey): Promise<void> {
    this.runs.delete(mapKey(key));
    return Promise.resolve();
  }

  private appendNow(key: RunKey, records: readonly RunRecord[], expectedLength: number): number {
    const id = this.idOf(key);
    const run = this.live(id);
    const length = run?.texts.length ?? 0;
    if (length !== expectedLength) throw appendConflict(key.runId, expectedLength, length);
    const texts = records.map(encodeRunRecord);
    const sizes = recordSizes(texts);
    checkAppendLimits(key.runId, sizes, { records: length, bytes: run?.bytes ?? 0 }, this.options);
    const stored = run ?? { texts: [], bytes: 0, expiresAt: 0 };
    stored.texts.push(...texts);
    for (const size of sizes) stored.bytes += size;
    stored.expiresAt = this.options.now() + this.options.ttlMs;
    this.runs.delete(id); // re-insert: the most recently written goes last
    this.runs.set(id, stored);
    if (this.runs.size > this.options.maxRuns) {
      const oldest = this.runs.keys().next().value;
      if (oldest !== undefined) this.runs.delete(oldest);
    }
    return stored.texts.length;
  }

  /** The Map key of a run: the last one is kept (a run's writer passes one key object). */
  private idOf(key: RunKey): string {
    const last = this.lastKey;
    if (last !== undefined && last.owner === key.owner && last.runId === key.runId) {
      return last.id;
    }
    const id = mapKey(key);
    this.lastKey = { owner: key.owner, runId: key.runId, id };
    return id;
  }

  /** The run, unless it expired (then it is forgotten). */
  private live(id: string): StoredRun | undefined {
    const run = this.runs.get(id);
    if (run !== undefined && run.expiresAt <= this.options.now()) {
      this.runs.delete(id);
      return undefined;
    }
    return run;
  }
}

/** Owner and run id in one Map key: as JSON, no characters of either can join two keys. */
const mapKey = (key: RunKey): string => JSON.stringify([key.owner, key.runId]);
