const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Finds the first top-level JSON object or array in text that arrives piece by piece:
 * skips prose and code fences before it, tracks nesting and strings, and notes where the
 * value ends. Each character is looked at once, so feeding a stream is linear.
 * @internal
 */
export class JsonScanner {
  /** Offset of the opening `{` or `[`, or -1 while none was seen. */
  start = -1;
  /** Offset just after the closing bracket, or -1 while the value is open. */
  end = -1;
  private offset = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;

  /** Whether the value is complete. */
  get done(): boolean {
    return this.end !== -1;
  }

  /**
   * Scans the next piece of text (the pieces, concatenated, are the text being scanned).
   * @param piece The next piece.
   * @returns this.
   */
  feed(piece: string): this {
    const base = this.offset;
    this.offset += piece.length;
    if (this.end !== -1) return this;
    for (let i = 0; i < piece.length; i++) {
      const code = piece.charCodeAt(i);
      if (this.start === -1) {
        if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
          this.start = base + i;
          this.depth = 1;
        }
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) this.inString = false;
        continue;
      }
      if (code === QUOTE) this.inString = true;
      else if (code === OPEN_OBJECT || code === OPEN_ARRAY) this.depth++;
      else if ((code === CLOSE_OBJECT || code === CLOSE_ARRAY) && --this.depth === 0) {
        this.end = base + i + 1;
        return this;
      }
    }
    return this;
  }
}
