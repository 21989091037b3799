import { SCHEMA_LIMIT_DEFAULTS } from '../schema/schema-limits.js';
import { dropUnsafeKeys } from '../schema/unsafe-keys.js';
import { PartialJsonScanner } from './partial-json-scanner.js';

/**
 * Returned by {@link PartialJsonParser.push} when there is nothing new to show.
 * @internal
 */
export const NO_VALUE: unique symbol = Symbol('rx-advisors.no-value');

/** Values up to this size are re-parsed on every delta that changes them. */
const ALWAYS_PARSE_UP_TO = 1024;
/**
 * Past that, a re-parse waits until the value grew by 1/GROWTH_RATIO since the last one.
 * A parse of L characters then comes at most every L/128 characters: about 128 characters
 * parsed per character streamed, whatever the size, the same as the always-parsed first
 * 1 KB costs on average (W6 in docs/performance.md measured ~1.2 µs per 4-character delta
 * from 1 KB to 100 KB).
 */
const GROWTH_RATIO = 128;

/**
 * Turns streamed answer text into partial JSON values. A `PartialJsonScanner` follows the
 * text in linear time and closes the value so far; the native `JSON.parse` parses that.
 * A preview is emitted only when it changed. Each parse reads the whole value, so past
 * 1 KB parses are spaced out (one per 1/128 of growth: a preview lags at most 1/128 of
 * the value behind the stream), which keeps the work per delta constant and the total
 * linear in the answer's length. Previews are as clean as final values: once the scanner has seen
 * a key that may decode to `__proto__` or `constructor` (escaped keys included), every
 * preview is parsed with the reviver that drops them; past `maxDepth`, no preview is shown
 * (the final value fails with "nested too deeply").
 * @internal
 */
export class PartialJsonParser {
  private readonly maxDepth: number;
  private text = '';
  private scanner = new PartialJsonScanner();
  private parsedLength = 0;
  private lastCompleted = '';

  /** @param maxDepth The deepest nesting previews are shown for; default 64. */
  constructor(maxDepth: number = SCHEMA_LIMIT_DEFAULTS.maxDepth) {
    this.maxDepth = maxDepth;
  }

  /** Every delta pushed since the last reset. */
  get fullText(): string {
    return this.text;
  }

  /** Forgets everything (a new attempt starts). */
  reset(): void {
    this.text = '';
    this.scanner = new PartialJsonScanner();
    this.parsedLength = 0;
    this.lastCompleted = '';
  }

  /**
   * Adds a delta.
   * @param delta The next piece of answer text.
   * @returns The partial value when there is a new one, else {@link NO_VALUE}.
   */
  push(delta: string): unknown {
    const scanner = this.scanner;
    if (scanner.done) {
      this.text += delta;
      return NO_VALUE;
    }
    this.text += delta;
    scanner.feed(delta);
    if (scanner.start === -1 || scanner.deepest > this.maxDepth) return NO_VALUE;
    const length = this.text.length - scanner.start;
    if (
      !scanner.done &&
      length > ALWAYS_PARSE_UP_TO &&
      (length - this.parsedLength) * GROWTH_RATIO < length
    ) {
      return NO_VALUE;
    }
    this.parsedLength = length;
    const completed = scanner.complete(this.text);
    if (completed === undefined || completed === this.lastCompleted) return NO_VALUE;
    const unsafeKeys = scanner.unsafeKeys;
    let value = parsePreview(completed, unsafeKeys);
    if (value === NO_VALUE) {
      // e.g. a string value that ends inside a \u escape: show it without that string.
      const shorter = scanner.completeWithoutOpenString(this.text);
      if (shorter === undefined || shorter === this.lastCompleted) return NO_VALUE;
      value = parsePreview(shorter, unsafeKeys);
      if (value !== NO_VALUE) this.lastCompleted = shorter;
      return value;
    }
    this.lastCompleted = completed;
    return value;
  }
}

function parsePreview(text: string, unsafeKeys: boolean): unknown {
  try {
    // JSON.parse never sets a prototype, but an own `__proto__` key (or a
    // `constructor.prototype` path) could do harm when a preview is merged into another
    // object: drop them as the final parse does, whatever escapes the key is written with.
    return unsafeKeys
      ? (JSON.parse(text, dropUnsafeKeys) as unknown)
      : (JSON.parse(text) as unknown);
  } catch {
    return NO_VALUE;
  }
}
