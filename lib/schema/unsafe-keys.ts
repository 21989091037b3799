/**
 * A `JSON.parse` reviver that drops the keys a later merge could use to reach a prototype:
 * every `__proto__` key, and every `constructor` key whose value is an object with a
 * `prototype` key (the `constructor.prototype` path). Other keys are kept, a `constructor`
 * string or a `prototype` elsewhere included.
 * @internal
 * @param key The member's key (its decoded text: escapes such as `\u005f` are resolved).
 * @param value The member's parsed value.
 * @returns `undefined` to drop the member, else the value.
 */
export function dropUnsafeKeys(key: string, value: unknown): unknown {
  if (key === '__proto__') return undefined;
  if (
    key === 'constructor' &&
    typeof value === 'object' &&
    value !== null &&
    Object.prototype.hasOwnProperty.call(value, 'prototype')
  ) {
    return undefined;
  }
  return value;
}

/** The two key names that may be dropped. */
const PROTO = '__proto__';
const CONSTRUCTOR = 'constructor';

/**
 * Follows one key's raw text character by character and says whether it may decode to a
 * key {@link dropUnsafeKeys} drops: it contains an escape (so its decoded text is not its
 * raw text), or it is literally `__proto__` or `constructor`. Cheap enough to run on every
 * character of a streamed answer: two comparisons and no allocation.
 * @internal
 */
export class UnsafeKeyMatcher {
  private index = 0;
  private matches = 0;
  private escaped = false;

  /** Starts a new key. */
  start(): void {
    this.index = 0;
    this.matches = 3;
    this.escaped = false;
  }

  /**
   * Sees one raw character of the key (between its quotes).
   * @param code The character code.
   */
  next(code: number): void {
    if (code === 0x5c) this.escaped = true;
    if (this.matches === 0) return;
    if (PROTO.charCodeAt(this.index) !== code) this.matches &= 2;
    if (CONSTRUCTOR.charCodeAt(this.index) !== code) this.matches &= 1;
    this.index++;
  }

  /** Whether the key, now complete, may be one that is dropped. */
  get unsafe(): boolean {
    return (
      this.escaped ||
      ((this.matches & 1) !== 0 && this.index === PROTO.length) ||
      ((this.matches & 2) !== 0 && this.index === CONSTRUCTOR.length)
    );
  }
}
