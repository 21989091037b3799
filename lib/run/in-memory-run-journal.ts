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
import { APPEND_NOW, READ_NOW } from './sync-append.js';

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
  /**
   * Each record: its text, as a shared store keeps it (`append`), or the record itself, handed
   * over by the durable run's synchronous append (`APPEND_NOW`: nothing changes it after).
   */
  readonly records: (string | RunRecord)[];
  /** The records' UTF-8 sizes as a shared store counts them, or upper bounds of them until `exact`. */
  bytes: number;
  /** Whether `bytes` is exact (a run's sizes are counted once a bound no longer settles a limit). */
  exact: boolean;
  expiresAt: number;
}

/**
 * A {@link RunJournal} in this process's memory: for tests and single-instance servers.
 * What `append` is given is kept as the text a shared store would keep (the caller may
 * change its objects after); the records a `DurableRunAdvisor` writes are handed over (it
 * copies first what others hold) and kept as they are, with no text made. Either way a read
 * gives copies, through the text (the codec's checks run here too). The byte limits are a
 * shared store's, counted on the same text: an upper bound accepts an append far from them
 * without making or counting it, and the exact count decides otherwise. A run survives a crash only in a shared store: use
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
  /** The Map key of the run written last (the last in Map order). */
  private newest: string | undefined;
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

  /**
   * The durable run's writer appends here without a Promise, and hands the records over
   * (nothing changes them after the call: see `APPEND_NOW`), so they are kept as they are,
   * with no text made; a read copies them. @internal
   */
  [APPEND_NOW](key: RunKey, records: readonly RunRecord[], expectedLength: number): number {
    return this.appendNow(key, records, expectedLength, true);
  }

  /** @inheritDoc */
  read(key: RunKey): Promise<readonly RunRecord[]> {
    return new Promise((resolve) => resolve(this.readNow(key)));
  }

  /** The durable run reads here without a Promise. @internal */
  [READ_NOW](key: RunKey): readonly RunRecord[] {
    return this.readNow(key);
  }

  private readNow(key: RunKey): readonly RunRecord[] {
    const records = this.live(mapKey(key), this.options.now())?.records;
    if (records === undefined) return [];
    const { runId } = key;
    // A record kept as it was handed over is read as a shared store would give it back: a copy
    // through its text (so the codec's checks run on it too).
    return records.map((stored, index) =>
      decodeRunRecord(typeof stored === 'string' ? stored : encodeRunRecord(stored), {
        runId,
        index,
      }),
    );
  }

  /** @inheritDoc */
  delete(key: RunKey): Promise<void> {
    this.forget(mapKey(key));
    return Promise.resolve();
  }

  private appendNow(
    key: RunKey,
    records: readonly RunRecord[],
    expectedLength: number,
    handedOver = false,
  ): number {
    const id = this.idOf(key);
    const now = this.options.now();
    const run = this.live(id, now);
    const length = run?.records.length ?? 0;
    if (length !== expectedLength) throw appendConflict(key.runId, expectedLength, length);
    const { options } = this;
    // The public append keeps the text (the caller may change its objects after); a handed
    // over record is kept as it is.
    const stored: (string | RunRecord)[] = handedOver
      ? records.slice()
      : records.map(encodeRunRecord);
    // An upper bound of each record's UTF-8 size accepts an append far from the limits
    // without counting: 3 bytes per UTF-16 unit of a text, `textSizeBound` for a record (no
    // text made). The exact count (`Buffer.byteLength` of the text, a fifth of an append)
    // decides otherwise.
    const sizes: number[] = new Array<number>(stored.length);
    let exact = run?.exact ?? false;
    let bytes = run?.bytes ?? 0;
    let added = 0;
    for (let i = 0; i < stored.length; i++) {
      const record = stored[i];
      const bound = typeof record === 'string' ? 3 * record.length : recordSizeBound(record);
      sizes[i] = exact || bound > options.maxRecordBytes ? exactSize(record) : bound;
      added += sizes[i];
    }
    if (!exact && bytes + added > options.maxRunBytes) {
      // The bounds do not settle it: count the run and the append exactly, from now on.
      exact = true;
      bytes = 0;
      for (const record of run?.records ?? []) bytes += exactSize(record);
      for (let i = 0; i < stored.length; i++) sizes[i] = exactSize(stored[i]);
    }
    // Over a limit only by exact counts: refused exactly where a shared store refuses.
    checkAppendLimits(key.runId, sizes, { records: length, bytes }, options);
    for (const size of sizes) bytes += size;
    const target = run ?? { records: [], bytes: 0, exact: false, expiresAt: 0 };
    for (const record of stored) target.records.push(record);
    target.bytes = bytes;
    target.exact = exact;
    target.expiresAt = now + options.ttlMs;
    if (id !== this.newest || run === undefined) {
      // Re-inserted: the most recently written goes last.
      this.runs.delete(id);
      this.runs.set(id, target);
      this.newest = id;
      if (this.runs.size > options.maxRuns) {
        const oldest = this.runs.keys().next().value;
        if (oldest !== undefined) this.forget(oldest);
      }
    }
    return target.records.length;
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
  private live(id: string, now: number): StoredRun | undefined {
    const run = this.runs.get(id);
    if (run !== undefined && run.expiresAt <= now) {
      this.forget(id);
      return undefined;
    }
    return run;
  }

  private forget(id: string): void {
    this.runs.delete(id);
    if (id === this.newest) this.newest = undefined;
  }
}

/** A record's UTF-8 size, as a shared store counts it (its text's). */
const exactSize = (record: string | RunRecord): number =>
  recordSizes([typeof record === 'string' ? record : encodeRunRecord(record)])[0];

/** The text `encodeRunRecord` puts before a record's own JSON members: `{"v":1,`. */
const VERSION_BYTES = 8;

/**
 * An upper bound of the UTF-8 size of a record's stored text (`encodeRunRecord`), without
 * making it: `Infinity` for what the bound does not cover (an object not plain, a value JSON
 * refuses, a deep or cyclic tree), so the text is made and counted (and refused as `append` refuses).
 */
function recordSizeBound(record: RunRecord): number {
  return VERSION_BYTES + jsonSizeBound(record, 0);
}

/**
 * An upper bound of a value's UTF-8 size as JSON: a UTF-16 unit of a string takes at most
 * 6 bytes (`\u001f`; a lone surrogate `\udXXX`); a number at most 25 characters; a
 * `Uint8Array` at most 18 bytes per byte (as an object of indexes, above its base64).
 */
function jsonSizeBound(value: unknown, depth: number): number {
  switch (typeof value) {
    case 'string':
      return 2 + 6 * value.length;
    case 'number':
      return 25;
    case 'boolean':
    case 'undefined':
      return 5;
    case 'object':
      break;
    default:
      // A bigint (JSON refuses it), a function or a symbol (left out): counted exactly.
      return Infinity;
  }
  if (value === null) return 4;
  if (depth > 32) return Infinity;
  if (value instanceof Uint8Array) return 2 + 18 * value.length;
  if (Array.isArray(value)) {
    let size = 2;
    for (const item of value as unknown[]) size += 1 + jsonSizeBound(item, depth + 1);
    return size;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  // Not a plain object (a Date's `toJSON`, a boxed number): counted exactly.
  if (prototype !== Object.prototype && prototype !== null) return Infinity;
  let size = 2;
  for (const key in value) {
    size += 4 + 6 * key.length + jsonSizeBound((value as Record<string, unknown>)[key], depth + 1);
  }
  return size;
}

/** Owner and run id in one Map key: as JSON, no characters of either can join two keys. */
const mapKey = (key: RunKey): string => JSON.stringify([key.owner, key.runId]);
