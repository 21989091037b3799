import type { PiiDetector } from './pii-detector.js';
import { piiClassesOf, type PiiClasses } from './pii-classes.js';

/** A match, in absolute offsets of the text written so far. */
interface Match {
  readonly start: number;
  readonly end: number;
  readonly detector: number;
}

const byPosition = (a: Match, b: Match): number =>
  a.start - b.start || b.end - a.end || a.detector - b.detector;

/**
 * Redacts a text that arrives in pieces, keeping a carry-over: a run of characters that may
 * still turn out to be PII (see {@link PiiDetector}) is held until it ends, so a card number
 * split across chunks is redacted like a whole one, and the output is the same however the
 * text was split. Each character is read once, for all detectors at once (one bit mask per
 * character, {@link PiiClasses}); a run is handed to `detect` only if its length is within
 * the detector's `minLength`..`maxLength` and it holds a key character (`isKeyChar`), so most
 * words and spaces cost no call and no copy. Linear time; what is held is at most the longest
 * `maxLength` of the detectors. One scanner per stream.
 *
 * @example
 * ```ts
 * // internal: not exported (piiRedaction().redact and GuardrailsAdvisor use it)
 * const scanner = new PiiScanner(DEFAULT_PII_DETECTORS);
 * scanner.write('card 4111 1111 ') + scanner.write('1111 1111 ok') + scanner.end(); // 'card [card] ok'
 * ```
 * @internal
 */
export class PiiScanner {
  private pending = '';
  /** The absolute offset of `pending[0]`. */
  private base = 0;
  private readonly classes: PiiClasses;
  private readonly detectors: readonly PiiDetector[];
  /** Where each detector's open run starts (absolute), when its bit is in `open`. */
  private readonly runStart: Float64Array;
  /** The detectors with an open run, and those whose open run has a key character. */
  private open = 0;
  private keyed = 0;
  private matches: Match[] = [];

  /** @param detectors The detectors, in the order ties are broken (at most 31). */
  constructor(detectors: readonly PiiDetector[]) {
    this.classes = piiClassesOf(detectors);
    this.detectors = detectors;
    this.runStart = new Float64Array(detectors.length);
  }

  /**
   * Reads more text.
   * @param text The next piece.
   * @returns The redacted text that is final now (possibly `''`).
   */
  write(text: string): string {
    const from = this.pending.length;
    const pending = this.pending + text;
    this.pending = pending;
    const { asciiRun, asciiKey } = this.classes;
    const base = this.base;
    let open = this.open;
    let keyed = this.keyed;
    for (let i = from; i < pending.length; i++) {
      const code = pending.charCodeAt(i);
      const ascii = code < 128;
      const mask = ascii ? asciiRun[code] : this.classes.runMask(code);
      if (mask !== open) {
        const ended = open & ~mask;
        if (ended !== 0) this.closeRuns(ended, keyed, base + i);
        const started = mask & ~open;
        for (let bits = started; bits !== 0; bits &= bits - 1) {
          this.runStart[31 - Math.clz32(bits & -bits)] = base + i;
        }
        keyed &= ~started;
        open = mask;
      }
      if (mask !== 0) keyed |= ascii ? asciiKey[code] : this.classes.keyMask(code);
    }
    this.open = open;
    this.keyed = keyed;
    return this.release(false);
  }

  /**
   * Ends the text: every open run is decided and everything held is released. The scanner
   * can then read a new text.
   * @returns The rest of the redacted text.
   */
  end(): string {
    if (this.open !== 0) this.closeRuns(this.open, this.keyed, this.base + this.pending.length);
    this.open = 0;
    this.keyed = 0;
    return this.release(true);
  }

  /** Hands the runs that end at `end` to their detectors, when they may be PII. */
  private closeRuns(ended: number, keyed: number, end: number): void {
    const { minLength, maxLength } = this.classes;
    for (let bits = ended & keyed; bits !== 0; bits &= bits - 1) {
      const d = 31 - Math.clz32(bits & -bits);
      const start = this.runStart[d];
      const length = end - start;
      if (length > maxLength[d] || length < minLength[d]) continue;
      const run = this.pending.slice(start - this.base, end - this.base);
      const span = this.detectors[d].detect(run);
      if (span === undefined || span.end <= span.start) continue;
      this.matches.push({ start: start + span.start, end: start + span.end, detector: d });
    }
  }

  private release(final: boolean): string {
    const { base, pending } = this;
    const end = base + pending.length;
    let cut = end;
    if (!final) {
      // A run longer than maxLength is never PII: it holds nothing.
      const { maxLength } = this.classes;
      for (let bits = this.open; bits !== 0; bits &= bits - 1) {
        const d = 31 - Math.clz32(bits & -bits);
        const start = this.runStart[d];
        if (start < cut && end - start <= maxLength[d]) cut = start;
      }
    }
    if (this.matches.length === 0) {
      if (cut === base) return '';
      const length = cut - base;
      this.base = cut;
      if (length === pending.length) {
        this.pending = '';
        return pending;
      }
      this.pending = pending.slice(length);
      return pending.slice(0, length);
    }
    return this.releaseMatches(cut);
  }

  /** Releases up to `cut` with the matches redacted (a match straddling `cut` waits). */
  private releaseMatches(upTo: number): string {
    const { base, pending } = this;
    let cut = upTo;
    if (this.matches.length > 1) this.matches.sort(byPosition);
    const chosen: Match[] = [];
    let lastEnd = base;
    for (const match of this.matches) {
      if (match.start < lastEnd) continue;
      chosen.push(match);
      lastEnd = match.end;
    }
    for (let i = chosen.length - 1; i >= 0; i--) {
      const match = chosen[i];
      if (match.start < cut && match.end > cut) cut = match.start;
    }
    if (cut === base) return '';
    let out = '';
    let position = base;
    for (const match of chosen) {
      if (match.end > cut) break;
      out += pending.slice(position - base, match.start - base);
      out +=
        this.detectors[match.detector].replacement ?? `[${this.detectors[match.detector].name}]`;
      position = match.end;
    }
    out += pending.slice(position - base, cut - base);
    this.pending = pending.slice(cut - base);
    this.base = cut;
    this.matches = this.matches.filter((m) => m.start >= cut);
    return out;
  }
}
