import type { PiiDetector } from './pii-detector.js';

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
 * text was split. Each character is read once per detector (linear time); what is held is at
 * most the longest `maxLength` of the detectors. One scanner per stream.
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
  private readonly runStart: number[];
  private readonly overflow: boolean[];
  private matches: Match[] = [];

  /** @param detectors The detectors, in the order ties are broken. */
  constructor(private readonly detectors: readonly PiiDetector[]) {
    this.runStart = detectors.map(() => -1);
    this.overflow = detectors.map(() => false);
  }

  /**
   * Reads more text.
   * @param text The next piece.
   * @returns The redacted text that is final now (possibly `''`).
   */
  write(text: string): string {
    const from = this.pending.length;
    this.pending += text;
    for (let d = 0; d < this.detectors.length; d++) this.scan(d, from);
    return this.release(false);
  }

  /**
   * Ends the text: every open run is decided and everything held is released. The scanner
   * can then read a new text.
   * @returns The rest of the redacted text.
   */
  end(): string {
    const end = this.base + this.pending.length;
    for (let d = 0; d < this.detectors.length; d++) {
      const start = this.runStart[d];
      if (start >= 0 && !this.overflow[d]) this.closeRun(d, start, end);
      this.runStart[d] = -1;
    }
    return this.release(true);
  }

  private scan(d: number, from: number): void {
    const detector = this.detectors[d];
    const { pending, base } = this;
    let start = this.runStart[d];
    let overflow = this.overflow[d];
    for (let i = from; i < pending.length; i++) {
      if (detector.isRunChar(pending.charCodeAt(i))) {
        if (start < 0) {
          start = base + i;
          overflow = detector.maxLength < 1;
        } else if (!overflow && base + i - start >= detector.maxLength) {
          overflow = true;
        }
      } else if (start >= 0) {
        if (!overflow) this.closeRun(d, start, base + i);
        start = -1;
      }
    }
    this.runStart[d] = start;
    this.overflow[d] = overflow;
  }

  private closeRun(d: number, start: number, end: number): void {
    const run = this.pending.slice(start - this.base, end - this.base);
    const span = this.detectors[d].detect(run);
    if (span === undefined || span.end <= span.start) return;
    this.matches.push({ start: start + span.start, end: start + span.end, detector: d });
  }

  private release(final: boolean): string {
    const { base, pending } = this;
    let cut = base + pending.length;
    if (!final) {
      for (let d = 0; d < this.detectors.length; d++) {
        const start = this.runStart[d];
        if (start >= 0 && !this.overflow[d] && start < cut) cut = start;
      }
    }
    if (this.matches.length > 1) this.matches.sort(byPosition);
    const chosen: Match[] = [];
    let lastEnd = base;
    for (const match of this.matches) {
      if (match.start < lastEnd) continue;
      chosen.push(match);
      lastEnd = match.end;
    }
    // A match that straddles the cut is released whole, later.
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
    if (this.matches.length > 0) this.matches = this.matches.filter((m) => m.start >= cut);
    return out;
  }
}
