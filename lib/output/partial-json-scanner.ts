import { UnsafeKeyMatcher } from '../schema/unsafe-keys.js';

const enum Mode {
  KeyOrEnd, // after '{'
  Key, // after ',' in an object
  InKey,
  Colon, // after a key
  ValueOrEnd, // after '['
  Value, // after ':' or after ',' in an array
  InString, // inside a string value
  InAtom, // inside a number, true, false or null
  AfterValue,
}

const OBJECT = 0;
const ARRAY = 1;

/**
 * Follows streamed JSON one character at a time (prose and fences before it skipped) and
 * can say, at any point, which prefix of it is a complete JSON value once the open
 * strings and containers are closed. A member whose key, number or literal is still
 * arriving is left out until it is complete; a string value being written is shown as
 * far as it came. It also notes the deepest nesting seen and whether a complete key may
 * decode to one that safe parsing drops (an escaped key, `__proto__`, `constructor`), so
 * previews need the dropping reviver only then. Feeding is linear in the text; completing
 * costs one slice.
 * @internal
 */
export class PartialJsonScanner {
  /** Offset of the opening `{` or `[`, or -1 while none was seen. */
  start = -1;
  /** Offset just after the closing bracket, or -1 while the value is open. */
  end = -1;
  /** The deepest nesting of objects and arrays seen (the top-level value is 1). */
  deepest = 0;
  /** Whether a complete key may decode to a key that safe parsing drops. */
  unsafeKeys = false;
  private readonly keys = new UnsafeKeyMatcher();
  private offset = 0;
  private readonly stack: number[] = [];
  private mode: Mode = Mode.AfterValue;
  private escaped = false;
  /** Where the text can be cut and closed: just after the last complete member or the opening bracket. */
  private safeCut = -1;

  /** Whether the top-level value is complete. */
  get done(): boolean {
    return this.end !== -1;
  }

  /**
   * Scans the next piece (the pieces, concatenated, are the text).
   * @param piece The next piece of text.
   */
  feed(piece: string): void {
    const base = this.offset;
    this.offset += piece.length;
    for (let i = 0; i < piece.length && this.end === -1; i++) {
      this.step(piece.charCodeAt(i), base + i);
    }
  }

  /**
   * The JSON text of the value so far, closed so that it parses.
   * @param text Everything fed so far.
   * @returns The closed prefix, or `undefined` before the value starts.
   */
  complete(text: string): string | undefined {
    if (this.start === -1) return undefined;
    if (this.end !== -1) return text.slice(this.start, this.end);
    if (this.mode === Mode.InString) {
      let cut = text.length;
      if (this.escaped) cut--; // a lone backslash cannot end a string
      return `${text.slice(this.start, cut)}"${this.closers()}`;
    }
    const cut = this.mode === Mode.AfterValue ? text.length : this.safeCut;
    return text.slice(this.start, cut) + this.closers();
  }

  /**
   * Like {@link complete}, but cut before a string value still being written.
   * @param text Everything fed so far.
   * @returns The closed prefix, or `undefined` before the value starts.
   */
  completeWithoutOpenString(text: string): string | undefined {
    if (this.start === -1 || this.end !== -1 || this.mode !== Mode.InString)
      return this.complete(text);
    return text.slice(this.start, this.safeCut) + this.closers();
  }

  private closers(): string {
    let closers = '';
    for (let i = this.stack.length - 1; i >= 0; i--)
      closers += this.stack[i] === OBJECT ? '}' : ']';
    return closers;
  }

  private open(kind: number, at: number): void {
    this.stack.push(kind);
    if (this.stack.length > this.deepest) this.deepest = this.stack.length;
    this.mode = kind === OBJECT ? Mode.KeyOrEnd : Mode.ValueOrEnd;
    this.safeCut = at + 1;
  }

  private valueDone(cut: number): void {
    this.mode = Mode.AfterValue;
    this.safeCut = cut;
  }

  private step(code: number, at: number): void {
    if (this.start === -1) {
      if (code === 0x7b || code === 0x5b) {
        this.start = at;
        this.open(code === 0x7b ? OBJECT : ARRAY, at);
      }
      return;
    }
    switch (this.mode) {
      case Mode.InKey:
      case Mode.InString:
        if (this.escaped) this.escaped = false;
        else if (code === 0x5c) this.escaped = true;
        else if (code === 0x22) {
          if (this.mode === Mode.InString) this.valueDone(at + 1);
          else {
            this.mode = Mode.Colon;
            if (this.keys.unsafe) this.unsafeKeys = true;
          }
          return;
        }
        if (this.mode === Mode.InKey) this.keys.next(code);
        return;
      case Mode.InAtom:
        if (code === 0x2c || code === 0x7d || code === 0x5d || isSpace(code)) {
          this.valueDone(at);
          this.step(code, at);
        }
        return;
      default:
        break;
    }
    if (isSpace(code)) return;
    switch (code) {
      case 0x7b: // {
      case 0x5b: // [
        if (this.expectsValue()) this.open(code === 0x7b ? OBJECT : ARRAY, at);
        return;
      case 0x7d: // }
      case 0x5d: // ]
        this.stack.pop();
        if (this.stack.length === 0) this.end = at + 1;
        else this.valueDone(at + 1);
        return;
      case 0x22: // "
        if (this.mode === Mode.KeyOrEnd || this.mode === Mode.Key) {
          this.mode = Mode.InKey;
          this.keys.start();
        } else this.mode = Mode.InString;
        return;
      case 0x3a: // :
        this.mode = Mode.Value;
        return;
      case 0x2c: // ,
        this.mode = this.stack[this.stack.length - 1] === OBJECT ? Mode.Key : Mode.Value;
        return;
      default:
        if (this.expectsValue()) this.mode = Mode.InAtom;
    }
  }

  private expectsValue(): boolean {
    return this.mode === Mode.Value || this.mode === Mode.ValueOrEnd;
  }
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}
