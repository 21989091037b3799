import { dropUnsafeKeys } from '../schema/unsafe-keys.js';
import { assign, isSpace, NONE, type Frame } from './partial-json-frame.js';

const enum Mode {
  Before, // before the opening bracket (prose, fences)
  KeyOrEnd, // after '{'
  Key, // after ',' in an object
  InKey,
  Colon, // after a key
  ValueOrEnd, // after '['
  Value, // after ':' or after ',' in an array
  InString, // inside a string value
  InAtom, // inside a number, true, false or null
  AfterValue,
  Done, // the top-level value is complete
  Broken, // not JSON: no more previews
}

/**
 * Builds the value of streamed JSON as it arrives, one character at a time, so that a
 * preview costs what changed, not what came before. Each member is decoded once, when it
 * is complete (a key, a number or literal, a closed string, object or array); a string
 * value still being written is decoded as it grows (an escape only once it is whole). A
 * preview copies only the objects and arrays still open (the path from the top to the
 * member being written); complete members are shared between previews, which is why
 * previews are read-only. Keys that could reach a prototype are dropped from every
 * value, as the final parse drops them (`dropUnsafeKeys`).
 *
 * Previews follow the same rules as a parse of the text closed so far: a member whose
 * key, number or literal is still arriving is left out; a string value is shown as far
 * as it came. Feeding is linear in the text.
 * @internal
 */
export class PartialJsonBuilder {
  /** The deepest nesting of objects and arrays seen (the top-level value is 1). */
  deepest = 0;
  private mode: Mode = Mode.Before;
  private readonly frames: Frame[] = [];
  private root: unknown = NONE;
  /** The raw text of the key, atom or string value being written (from its start). */
  private raw = '';
  /** A string value: what of `raw` is decoded, and where the undecoded rest starts. */
  private decoded = '';
  private decodedUpTo = 0;
  /** Inside a string: the offset in `raw` of an escape still arriving, else -1. */
  private escapeAt = -1;
  private changed = false;

  /** Whether the top-level value is complete. */
  get done(): boolean {
    return this.mode === Mode.Done;
  }

  /** Whether the text stopped being JSON (no preview will come). */
  get broken(): boolean {
    return this.mode === Mode.Broken;
  }

  /**
   * Follows the next piece of text.
   * @param piece The next piece (the pieces, concatenated, are the text).
   * @returns Whether what a preview would show changed.
   */
  feed(piece: string): boolean {
    this.changed = false;
    let runStart = -1; // a run of plain characters of a string or atom, copied at once
    for (let i = 0; i < piece.length; i++) {
      const mode = this.mode;
      if (mode === Mode.Done || mode === Mode.Broken) break;
      const code = piece.charCodeAt(i);
      if (mode === Mode.InString || mode === Mode.InKey || mode === Mode.InAtom) {
        if (!this.endsToken(code)) {
          if (runStart === -1) runStart = i;
          continue;
        }
        if (runStart !== -1) this.addRun(piece.slice(runStart, i));
        runStart = -1;
        this.endToken(code);
        continue;
      }
      this.step(code);
    }
    if (runStart !== -1) this.addRun(piece.slice(runStart));
    return this.changed && this.mode !== Mode.Broken;
  }

  /** Plain characters of the token being written (a string value's show at once). */
  private addRun(run: string): void {
    this.raw += run;
    if (this.mode === Mode.InString) this.changed = true;
  }

  /** What a preview copies: the complete members of the objects and arrays still open. */
  get openWidth(): number {
    let width = 0;
    for (const frame of this.frames) width += frame.size;
    return width;
  }

  /**
   * The value so far, closed: open strings, objects and arrays as far as they came.
   * @returns The preview, or `undefined` before the value starts.
   */
  preview(): unknown {
    if (this.mode === Mode.Done) return this.root;
    if (this.frames.length === 0) return undefined;
    let child: unknown = this.mode === Mode.InString ? this.openString() : NONE;
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const frame = this.frames[i];
      if (frame.isArray) {
        const copy = (frame.members as unknown[]).slice();
        if (child !== NONE) copy.push(child);
        child = copy;
      } else {
        const copy = { ...frame.members };
        if (child !== NONE && frame.key !== undefined) assign(copy, frame.key, child);
        child = copy;
      }
    }
    return child;
  }

  /** Whether `code` ends the character run of the current token (or needs a look). */
  private endsToken(code: number): boolean {
    if (this.mode === Mode.InAtom) {
      return code === 0x2c || code === 0x7d || code === 0x5d || isSpace(code);
    }
    return code === 0x22 || code === 0x5c || this.escapeAt !== -1;
  }

  /** One character that ends a run: a quote, a backslash, an escape's character, a delimiter. */
  private endToken(code: number): void {
    if (this.mode === Mode.InAtom) {
      const atom = this.parse(this.raw);
      if (atom === NONE) return;
      this.completeMember(atom, true);
      this.step(code);
      return;
    }
    if (this.escapeAt !== -1) {
      this.raw += String.fromCharCode(code);
      const length = this.raw.length - this.escapeAt; // `\` + what followed
      const whole =
        length === 2 ? this.raw.charCodeAt(this.escapeAt + 1) !== 0x75 /* u */ : length === 6;
      if (whole) {
        this.escapeAt = -1;
        if (this.mode === Mode.InString) this.changed = true;
      }
      return;
    }
    if (code === 0x5c) {
      this.escapeAt = this.raw.length;
      this.raw += '\\';
      return;
    }
    // the closing quote
    if (this.mode === Mode.InKey) {
      const key = this.decode(this.raw);
      if (key === NONE) return;
      this.top().key = key as string;
      this.mode = Mode.Colon;
      return;
    }
    const rest = this.decode(this.raw.slice(this.decodedUpTo));
    if (rest === NONE) return;
    // shown as far as it came: closing the string changes nothing visible
    this.completeMember(this.decoded + (rest as string), false);
  }

  /** The open string value as far as it can be decoded (an escape still arriving left out). */
  private openString(): string {
    const end = this.escapeAt === -1 ? this.raw.length : this.escapeAt;
    if (end > this.decodedUpTo) {
      const more = this.decode(this.raw.slice(this.decodedUpTo, end));
      if (typeof more === 'string') {
        this.decoded += more;
        this.decodedUpTo = end;
      }
    }
    return this.decoded;
  }

  private step(code: number): void {
    if (this.mode === Mode.Before) {
      if (code === 0x7b || code === 0x5b) this.open(code === 0x5b);
      return;
    }
    if (isSpace(code)) return;
    switch (code) {
      case 0x7b: // {
      case 0x5b: // [
        if (this.expectsValue()) this.open(code === 0x5b);
        else this.mode = Mode.Broken;
        return;
      case 0x7d: // }
      case 0x5d: // ]
        this.close(code === 0x5d);
        return;
      case 0x22: // "
        this.raw = '';
        if (this.mode === Mode.KeyOrEnd || this.mode === Mode.Key) this.mode = Mode.InKey;
        else if (this.expectsValue()) {
          this.mode = Mode.InString;
          this.decoded = '';
          this.decodedUpTo = 0;
          this.changed = true; // an empty string member appears
        } else this.mode = Mode.Broken;
        return;
      case 0x3a: // :
        this.mode = this.mode === Mode.Colon ? Mode.Value : Mode.Broken;
        return;
      case 0x2c: // ,
        if (this.mode !== Mode.AfterValue) this.mode = Mode.Broken;
        else this.mode = this.top().isArray ? Mode.Value : Mode.Key;
        return;
      default:
        if (!this.expectsValue()) {
          this.mode = Mode.Broken;
          return;
        }
        this.mode = Mode.InAtom;
        this.raw = String.fromCharCode(code);
    }
  }

  private open(isArray: boolean): void {
    this.frames.push({ members: isArray ? [] : {}, isArray, key: undefined, size: 0 });
    if (this.frames.length > this.deepest) this.deepest = this.frames.length;
    this.mode = isArray ? Mode.ValueOrEnd : Mode.KeyOrEnd;
    this.changed = true; // an empty object or array appears
  }

  private close(isArray: boolean): void {
    const frame = this.frames.at(-1);
    const canEnd = isArray
      ? this.mode === Mode.ValueOrEnd || this.mode === Mode.AfterValue
      : this.mode === Mode.KeyOrEnd || this.mode === Mode.AfterValue;
    if (frame === undefined || frame.isArray !== isArray || !canEnd) {
      this.mode = Mode.Broken;
      return;
    }
    this.frames.pop();
    // its members were shown as they came; the whole value is shown once more as the end
    this.completeMember(frame.members, this.frames.length === 0);
  }

  /**
   * A member (or the top-level value) is complete: it joins its container.
   * @param value The member's value.
   * @param visible Whether a preview shows more than before (a number or literal appears).
   */
  private completeMember(value: unknown, visible: boolean): void {
    const frame = this.frames.at(-1);
    this.raw = '';
    if (visible) this.changed = true;
    if (frame === undefined) {
      this.root = dropUnsafeKeys('', value);
      this.mode = Mode.Done;
      return;
    }
    frame.size++;
    if (frame.isArray) (frame.members as unknown[]).push(value);
    else if (frame.key !== undefined) {
      assign(frame.members as Record<string, unknown>, frame.key, value);
      frame.key = undefined;
    }
    this.mode = Mode.AfterValue;
  }

  /** The text of a JSON string's characters (no quotes), decoded: as is without escapes. */
  private decode(characters: string): unknown {
    return characters.includes('\\') ? this.parse(`"${characters}"`) : characters;
  }

  /** `JSON.parse` of one token; text that is not JSON breaks the builder (`NONE`). */
  private parse(text: string): unknown {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      this.mode = Mode.Broken;
      return NONE;
    }
  }

  private top(): Frame {
    return this.frames[this.frames.length - 1];
  }

  private expectsValue(): boolean {
    return this.mode === Mode.Value || this.mode === Mode.ValueOrEnd;
  }
}
