import type { RunRecord } from './run-record.js';

/**
 * What {@link copyRunRecord} gives: the copy, and an upper bound of the UTF-8 size of the
 * text a shared store would keep for the record (`encodeRunRecord`'s, version included).
 * @internal
 */
export interface RunRecordCopy {
  readonly copy: RunRecord;
  readonly bound: number;
}

/** The version prefix `{"v":1,` that `encodeRunRecord` puts in front: 7 bytes. */
const PREFIX_BYTES = 7;
/** The longest JSON text of a finite number (`-1.2345678901234567e-300`). */
const NUMBER_BYTES = 24;

/**
 * A deep copy of a record of plain data, which is exactly what
 * `JSON.parse(JSON.stringify(record))` would give, with no text made: for the in-memory
 * journal, whose records never leave the process. `undefined` when the record holds
 * anything JSON would change or that needs the codec (bytes, a `Date` or any object that is
 * not a plain object or array, a `toJSON`, a number that is not finite, `undefined` in an
 * array, a key `v`, `__proto__` or `constructor`): such a record takes the JSON path.
 *
 * The bound: every UTF-16 unit of a string or key is at most 6 bytes of JSON (`\u001f`, a
 * lone surrogate), a number at most 24, each container and member its punctuation. It
 * counts string lengths only, so a journal can accept an append under its byte limits
 * without the exact count; it counts exactly (`encodeRunRecord`'s bytes) only when the
 * bound does not settle it.
 * @internal
 * @param record A record.
 * @returns The copy and the bound, or `undefined`.
 */
export function copyRunRecord(record: RunRecord): RunRecordCopy | undefined {
  if (Object.prototype.hasOwnProperty.call(record, 'v') || isPolluted()) return undefined;
  const walk = new PlainCopy();
  const copy = walk.value(record);
  return copy === NOT_PLAIN ? undefined : { copy: copy as RunRecord, bound: walk.bound };
}

/**
 * A deep copy of a copy {@link copyRunRecord} made (plain data by construction), for a
 * reader: what it changes is not the journal's.
 * @internal
 */
export function copyPlainRecord(record: RunRecord): RunRecord {
  return new PlainCopy().value(record) as RunRecord;
}

const NOT_PLAIN: unique symbol = Symbol('not plain');
const EMPTY = {};

/**
 * Whether `Object.prototype` has enumerable keys (or a `toJSON`) someone added: `for...in`
 * would then see keys JSON does not. Such a process takes the JSON path.
 */
function isPolluted(): boolean {
  for (const key in EMPTY) return key !== undefined;
  return 'toJSON' in EMPTY;
}

/**
 * The walk: a spread per object (V8 clones it with its map, the fastest copy there is) and
 * a `slice` per array, then the members that are objects copied in place. Strings are
 * immutable: shared, not copied.
 */
class PlainCopy {
  bound = PREFIX_BYTES;

  value(value: unknown): unknown {
    switch (typeof value) {
      case 'string':
        this.bound += 6 * value.length + 2;
        return value;
      case 'number':
        if (!Number.isFinite(value)) return NOT_PLAIN;
        this.bound += NUMBER_BYTES;
        return value;
      case 'boolean':
        this.bound += 5;
        return value;
      case 'object':
        if (value === null) {
          this.bound += 4;
          return value;
        }
        return Array.isArray(value) ? this.array(value as unknown[]) : this.object(value);
      default:
        return NOT_PLAIN;
    }
  }

  private array(source: unknown[]): unknown {
    if (Object.getPrototypeOf(source) !== Array.prototype) return NOT_PLAIN;
    const copy = source.slice();
    const { length } = copy;
    this.bound += 2 + length;
    for (let i = 0; i < length; i++) {
      const item = copy[i];
      // A hole or `undefined`: JSON writes `null`.
      if (item === undefined) return NOT_PLAIN;
      const copied = this.value(item);
      if (copied === NOT_PLAIN) return NOT_PLAIN;
      if (copied !== item) copy[i] = copied;
    }
    return copy;
  }

  private object(source: object): unknown {
    const proto: unknown = Object.getPrototypeOf(source);
    if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
    // Own enumerable keys, as data properties (a `__proto__` key stays a key: refused below).
    const copy: Record<string, unknown> = { ...source };
    this.bound += 2;
    for (const key in copy) {
      if (key === '__proto__' || key === 'constructor' || key === 'toJSON') return NOT_PLAIN;
      const item = copy[key];
      // JSON leaves these members out; so would the copy, but only by a `delete`: rare.
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') {
        return NOT_PLAIN;
      }
      this.bound += 6 * key.length + 4;
      const copied = this.value(item);
      if (copied === NOT_PLAIN) return NOT_PLAIN;
      if (copied !== item) copy[key] = copied;
    }
    return copy;
  }
}
