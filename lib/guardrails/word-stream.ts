import { foldForMatching, type MatchNormalization } from './normalize-for-matching.js';
import { classOf, IGNORED, STARTS_SEGMENT } from './segment-classes.js';
import { ASCII_WORD, BOUNDARY, isWordCodePoint, WordAutomaton } from './word-automaton.js';

const SPACE = 32;
/** ASCII as the folding leaves it: upper case lowered, whitespace as a space. */
const ASCII_FOLD = Uint8Array.from({ length: 128 }, (_, code) => {
  if (code >= 0x41 && code <= 0x5a) return code + 32;
  return code >= 9 && code <= 13 ? SPACE : code;
});

/** `\s` beyond ASCII (what the whole-text normalization collapses with `/\s+/`). */
const isOtherSpace = (c: number): boolean =>
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

/** Folded short segments (one letter and its marks, mostly), per normalization; bounded. */
const FOLDED = [new Map<string, string>(), new Map<string, string>()];
const CACHE_LIMIT = 8192;

/**
 * Whole-word matching on a text that arrives in pieces, incrementally: each character is
 * normalized and read by the {@link WordAutomaton} once, when it arrives, so a piece costs
 * O(its length) however long the stream is, and the outcome is that of
 * `WordMatcher.find(normalizeForMatching(whole text))` however the text was split.
 *
 * Normalization per character: ASCII through a table (case; whitespace runs collapse to one
 * space); other text in *segments*, a character that starts one (see `STARTS_SEGMENT`) and
 * the marks or jamo after it, folded with `foldForMatching` once the next segment starts.
 * Folding is independent across that boundary, so folding segment by segment equals folding
 * the whole text. With `stripMarks` an ASCII character is read at once (marks after it
 * would be stripped); without, it waits for the next character, which may compose with it.
 *
 * {@link WordStream.held} says how many characters at the end of what was written must not
 * leave yet: the text since the start of the longest partial match (the automaton's depth),
 * and what waits to be normalized. Everything before can no longer be part of a match.
 *
 * @example
 * ```ts
 * // internal: not exported (wordGuardrail's output check)
 * const words = new WordMatcher(['secret']);
 * const stream = new WordStream(words.automaton, words.words, { stripMarks: true });
 * stream.write('the SEC'); // undefined; stream.held() === 3
 * stream.write('RET!'); // 'secret'
 * ```
 * @internal
 */
export class WordStream {
  private state = WordAutomaton.ROOT;
  private previousIsWord = false;
  private lastWasSpace = false;
  /** A word that ends at the last symbol read, if the next one is not a word character. */
  private candidate = -1;
  private found = -1;
  /** UTF-16 units written so far. */
  private written = 0;
  /** Symbols read so far, and the position (in written units) each one came from. */
  private read = 0;
  private readonly positions: Float64Array;
  private readonly mask: number;
  /** Text waiting to be folded: one ASCII code, or a string (`segmentStart` ≥ 0). */
  private segmentAscii = -1;
  private segment = '';
  private segmentStart = -1;
  /** A high surrogate that ended the last piece. */
  private lead = -1;
  private readonly stripMarks: boolean;
  private readonly folded: Map<string, string>;

  /**
   * @param automaton The automaton of the (normalized) words.
   * @param words The words, by index.
   * @param normalization The normalization the words went through.
   */
  constructor(
    private readonly automaton: WordAutomaton,
    private readonly words: readonly string[],
    private readonly normalization: MatchNormalization,
  ) {
    const size = 2 ** Math.ceil(Math.log2(automaton.maxDepth + 1));
    this.positions = new Float64Array(size);
    this.mask = size - 1;
    this.stripMarks = normalization.stripMarks;
    this.folded = FOLDED[normalization.stripMarks ? 1 : 0];
  }

  /**
   * Reads the next piece of text.
   * @param text The piece.
   * @returns The first word found so far, or `undefined`.
   */
  write(text: string): string | undefined {
    const base = this.written;
    this.written = base + text.length;
    let i = 0;
    if (this.lead >= 0 && text.length > 0) {
      const next = text.charCodeAt(0);
      const paired = next >= 0xdc00 && next <= 0xdfff;
      this.readOther(
        paired ? 0x10000 + ((this.lead - 0xd800) << 10) + next - 0xdc00 : this.lead,
        base - 1,
      );
      this.lead = -1;
      if (paired) i = 1;
    }
    for (; i < text.length && this.found < 0; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x80) {
        if (this.segmentStart >= 0) this.flush();
        if (this.stripMarks) {
          // Inside a word that no word starts in: nothing to read (the root has one child,
          // the word-start mark), and no position to keep.
          if (this.previousIsWord && this.state === WordAutomaton.ROOT && ASCII_WORD[code] === 1) {
            this.lastWasSpace = false;
            continue;
          }
          this.readAscii(code, base + i);
        } else {
          if (this.candidate >= 0) this.decide(ASCII_WORD[code] === 1);
          this.segmentAscii = code;
          this.segmentStart = base + i;
        }
      } else if (code >= 0xd800 && code <= 0xdbff) {
        if (i + 1 === text.length) {
          this.lead = code;
        } else {
          const codePoint = text.codePointAt(i) ?? code;
          if (codePoint > 0xffff) i++;
          this.readOther(codePoint, base + i);
        }
      } else {
        this.readOther(code, base + i);
      }
    }
    return this.found < 0 ? undefined : this.words[this.found];
  }

  /**
   * Ends the text run: what waits is normalized and read, and a word at the very end counts
   * as whole. Writing may go on (the state carries over, as for one text).
   * @returns The first word found, or `undefined`.
   */
  end(): string | undefined {
    if (this.found < 0 && this.lead >= 0) this.readOther(this.lead, this.written - 1);
    this.lead = -1;
    if (this.found < 0 && this.segmentStart >= 0) this.flush();
    if (this.found < 0 && this.candidate >= 0) this.found = this.candidate;
    this.candidate = -1;
    return this.found < 0 ? undefined : this.words[this.found];
  }

  /**
   * @returns How many UTF-16 units at the end of what was written may still be part of a
   * match (or wait to be normalized), and must be held.
   */
  held(): number {
    let from = this.lead >= 0 ? this.written - 1 : this.written;
    if (this.segmentStart >= 0 && this.segmentStart < from) from = this.segmentStart;
    const depth = this.automaton.depthOf(this.state);
    if (depth > 0) {
      const start = this.positions[(this.read - depth) & this.mask];
      if (start < from) from = start;
    }
    return this.written - from;
  }

  /** Automaton transitions so far (a work count for tests). */
  get steps(): number {
    return this.automaton.steps;
  }

  private readOther(codePoint: number, position: number): void {
    const kind = classOf(codePoint);
    if (kind === IGNORED) return;
    const char = String.fromCodePoint(codePoint);
    if (kind === STARTS_SEGMENT || this.segmentStart < 0) {
      if (this.segmentStart >= 0) this.flush();
      this.segment = char;
      this.segmentStart = position;
      return;
    }
    if (this.segmentAscii >= 0) {
      this.segment = String.fromCharCode(this.segmentAscii);
      this.segmentAscii = -1;
    }
    this.segment += char;
  }

  private flush(): void {
    const start = this.segmentStart;
    this.segmentStart = -1;
    if (this.segmentAscii >= 0) {
      const code = this.segmentAscii;
      this.segmentAscii = -1;
      this.readAscii(code, start);
      return;
    }
    const segment = this.segment;
    this.segment = '';
    let folded = this.folded.get(segment);
    if (folded === undefined) {
      folded = foldForMatching(segment, this.normalization);
      if (segment.length <= 4 && this.folded.size < CACHE_LIMIT) this.folded.set(segment, folded);
    }
    for (let i = 0; i < folded.length && this.found < 0; i++) {
      const codePoint = folded.codePointAt(i) ?? 0;
      if (codePoint > 0xffff) i++;
      if (codePoint < 0x80) this.readAscii(codePoint, start);
      else if (isOtherSpace(codePoint)) this.readAscii(SPACE, start);
      else this.readSymbol(codePoint, isWordCodePoint(codePoint), start, false);
    }
  }

  private readAscii(code: number, position: number): void {
    const symbol = ASCII_FOLD[code];
    const space = symbol === SPACE;
    if (space && this.lastWasSpace) return;
    this.readSymbol(symbol, ASCII_WORD[symbol] === 1, position, space);
  }

  private readSymbol(symbol: number, isWord: boolean, position: number, space: boolean): void {
    this.lastWasSpace = space;
    if (this.candidate >= 0) {
      this.decide(isWord);
      if (this.found >= 0) return;
    }
    const { automaton, positions, mask } = this;
    if (!this.previousIsWord) {
      this.state = automaton.step(this.state, BOUNDARY);
      positions[this.read++ & mask] = position;
    }
    this.state = automaton.step(this.state, symbol);
    positions[this.read++ & mask] = position;
    this.previousIsWord = isWord;
    this.candidate = automaton.wordAt(this.state);
  }

  /** The candidate ends a whole word when the next symbol is not a word character. */
  private decide(nextIsWord: boolean): void {
    if (!nextIsWord) this.found = this.candidate;
    this.candidate = -1;
  }
}
