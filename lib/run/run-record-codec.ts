import { base64FromBytes } from '../core/media-part.js';
import { RunJournalError } from '../errors/run-journal-error.js';
import { dropUnsafeKeys } from '../schema/unsafe-keys.js';
import { RUN_RECORD_TYPES, type RunRecord } from './run-record.js';

/**
 * The format version written into every stored record. A journal reads records of this
 * version and older ones it knows how to upgrade, and refuses newer ones
 * (`RunJournalError` `'unsupported-version'`): an older deployment never guesses at a
 * newer one's records during a rolling deploy.
 * @internal
 */
export const RUN_RECORD_FORMAT = 1;

const KNOWN_TYPES: ReadonlySet<string> = new Set(RUN_RECORD_TYPES);

/** Inline bytes travel as base64 text: JSON has no bytes. */
function bytesAsBase64(key: string, value: unknown): unknown {
  if (key === 'data' && typeof value === 'object' && value !== null && 'bytes' in value) {
    const bytes = value.bytes;
    if (bytes instanceof Uint8Array) return { base64: base64FromBytes(bytes) };
  }
  return value;
}

/**
 * One record as the text a store keeps: JSON with the format version in `v`.
 * @internal
 * @param record A record.
 * @returns Its stored text.
 */
export function encodeRunRecord(record: RunRecord): string {
  // A replacer takes JSON.stringify off its fast path (a third of an in-memory append): only
  // a record that holds bytes (inline media) pays for it. The version goes in front as text:
  // a record always has `type`, so its JSON is a non-empty object, and no copy of it with
  // `v` is made.
  if (containsBytes(record))
    return JSON.stringify({ v: RUN_RECORD_FORMAT, ...record }, bytesAsBase64);
  return VERSION_PREFIX + JSON.stringify(record).slice(1);
}

const VERSION_PREFIX = `{"v":${RUN_RECORD_FORMAT},`;

/**
 * A copy of a part of a record, for what the durable run hands over to a journal that keeps
 * records as they are (`APPEND_NOW`) while someone else still holds the original (a caller's
 * messages, a tool's result): plain objects and arrays copied member by member, bytes
 * copied; anything else (a `Date`, a class instance, a tree deeper than 64) as a store's text
 * gives it back (through JSON, inline bytes as base64), which is also what a read of the
 * copy gives. `__proto__` members are left out (a read drops them too).
 * @internal
 * @param value Plain data.
 * @returns Its copy.
 * @throws What `JSON.stringify` throws for a value it refuses (a bigint, a cycle).
 */
export function detachedCopy<T>(value: T): T {
  return plainCopy(value, 0) as T;
}

function plainCopy(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'bigint') return textCopy(value);
    return value;
  }
  if (depth > 64) return textCopy(value);
  if (Array.isArray(value)) {
    const items = value as unknown[];
    const copy: unknown[] = new Array<unknown>(items.length);
    for (let i = 0; i < items.length; i++) copy[i] = plainCopy(items[i], depth + 1);
    return copy;
  }
  if (value instanceof Uint8Array) return value.slice();
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return textCopy(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key !== '__proto__')
      copy[key] = plainCopy((value as Record<string, unknown>)[key], depth + 1);
  }
  return copy;
}

/** A value as a store's text gives it back. */
const textCopy = (value: unknown): unknown => {
  const text = JSON.stringify(value, bytesAsBase64);
  return text === undefined ? undefined : (JSON.parse(text, dropUnsafeKeys) as unknown);
};

/** Whether a value holds a `Uint8Array` anywhere (records are small trees of plain data). */
function containsBytes(value: object): boolean {
  if (value instanceof Uint8Array) return true;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) {
      if (typeof item === 'object' && item !== null && containsBytes(item)) return true;
    }
    return false;
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null && containsBytes(item)) return true;
  }
  return false;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isCount = (value: unknown): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** The fields each type needs beyond `type` and `delivered`, and how each is checked. */
const REQUIRED: Readonly<Record<RunRecord['type'], readonly [string, (v: unknown) => boolean][]>> =
  {
    'run-started': [['messages', Array.isArray]],
    'model-round': [
      ['round', isCount],
      ['message', (m) => isObject(m) && m['role'] === 'assistant'],
    ],
    'tool-call-started': [
      ['round', isCount],
      ['toolCallId', (v) => typeof v === 'string'],
      ['toolName', (v) => typeof v === 'string'],
    ],
    'tool-outcome': [
      ['round', isCount],
      ['message', (m) => isObject(m) && m['role'] === 'tool'],
    ],
    approval: [
      ['round', isCount],
      ['toolCallId', (v) => typeof v === 'string'],
      ['decision', (d) => isObject(d) && typeof d['approved'] === 'boolean'],
    ],
    'validation-retry': [
      ['attempt', isCount],
      ['feedback', (v) => typeof v === 'string'],
    ],
    'recursion-decision': [
      ['advisor', (v) => typeof v === 'string'],
      ['attempt', isCount],
      ['decision', (d) => isObject(d) && typeof d['retry'] === 'boolean'],
    ],
    'run-ended': [['outcome', (v) => v === 'completed' || v === 'failed' || v === 'cancelled']],
  };

/**
 * Reads one stored record back. Untrusted text: `__proto__` keys are dropped whatever their
 * escapes, the shape is checked, and anything this library did not write is refused with
 * the record's index (nothing of its content is put in the message).
 * @internal
 * @param text The stored text.
 * @param where The run id and the record's index, for the error.
 * @returns The record.
 * @throws RunJournalError `'corrupt-record'` or `'unsupported-version'`.
 */
export function decodeRunRecord(text: string, where: { runId: string; index: number }): RunRecord {
  const corrupt = (why: string, cause?: unknown): RunJournalError =>
    new RunJournalError({
      runId: where.runId,
      reason: 'corrupt-record',
      index: where.index,
      message: `Record ${where.index} of the run's journal is corrupt (${why}); the run cannot be resumed from it.`,
      cause,
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, dropUnsafeKeys);
  } catch (error) {
    throw corrupt('not JSON', error);
  }
  if (!isObject(parsed)) throw corrupt('not an object');
  const { v, ...record } = parsed;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw corrupt('no format version');
  if (v > RUN_RECORD_FORMAT) {
    throw new RunJournalError({
      runId: where.runId,
      reason: 'unsupported-version',
      index: where.index,
      message:
        `Record ${where.index} of the run's journal was written in format ${v}; this version ` +
        `of rx-advisors reads format ${RUN_RECORD_FORMAT} and older. Resume the run with the newer version.`,
    });
  }
  const type = record['type'];
  if (typeof type !== 'string' || !KNOWN_TYPES.has(type)) throw corrupt('unknown type');
  if (!isCount(record['delivered'])) throw corrupt('no delivered count');
  for (const [field, valid] of REQUIRED[type as RunRecord['type']]) {
    if (!valid(record[field])) throw corrupt(`bad ${field}`);
  }
  return record as unknown as RunRecord;
}
