import { parse as parsePartial } from 'partial-json';
import { JsonScanner } from './json-scanner.js';

/** Returned by {@link PartialJsonParser.push} when there is nothing new to show. */
export const NO_VALUE: unique symbol = Symbol('rx-advisors.no-value');

/** Region sizes up to this are re-parsed on every delta that adds non-blank text. */
const ALWAYS_PARSE_UP_TO = 4096;
/** Past that, a re-parse waits until the region grew by 1/GROWTH_RATIO since the last one. */
const GROWTH_RATIO = 32;

/**
 * Turns streamed answer text into partial JSON values. A `JsonScanner` finds the JSON
 * region in linear time (prose and fences skipped); `partial-json` parses the region so
 * far. Each parse reads the whole region, so past 4 KB parses are spaced out (every 1/32
 * of growth), which keeps the total work linear in the answer length.
 * @internal
 */
export class PartialJsonParser {
  private text = '';
  private scanner = new JsonScanner();
  private parsedLength = 0;

  /** Every delta pushed since the last reset. */
  get fullText(): string {
    return this.text;
  }

  /** Forgets everything (a new attempt starts). */
  reset(): void {
    this.text = '';
    this.scanner = new JsonScanner();
    this.parsedLength = 0;
  }

  /**
   * Adds a delta.
   * @param delta The next piece of answer text.
   * @returns The partial value when there is a new one, else {@link NO_VALUE}.
   */
  push(delta: string): unknown {
    const scanner = this.scanner;
    const wasDone = scanner.done;
    this.text += delta;
    scanner.feed(delta);
    if (scanner.start === -1 || wasDone || isBlank(delta)) return NO_VALUE;
    const end = scanner.done ? scanner.end : this.text.length;
    const length = end - scanner.start;
    if (
      !scanner.done &&
      length > ALWAYS_PARSE_UP_TO &&
      (length - this.parsedLength) * GROWTH_RATIO < length
    ) {
      return NO_VALUE;
    }
    this.parsedLength = length;
    const region = this.text.slice(scanner.start, end);
    // partial-json assigns keys with `obj[key] =`, so a `__proto__` key would set a prototype:
    // such answers get no previews (the final value is parsed safely).
    if (region.includes('"__proto__"')) return NO_VALUE;
    try {
      return parsePartial(region) as unknown;
    } catch {
      return NO_VALUE;
    }
  }
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return false;
  }
  return true;
}
