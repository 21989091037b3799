import { BOUNDARY, isWordCodePoint, WordAutomaton } from './word-automaton.js';

/**
 * Finds whole-word occurrences of many words in a whole text in one pass, over a
 * {@link WordAutomaton}: O(text length) whatever the number or length of the words. The
 * regular expression `(?<![\p{L}\p{N}_])word(?![\p{L}\p{N}_])` this replaces, with combining
 * marks (kept when `stripMarks` is off) and other connector punctuation counted as word
 * characters. Texts and words are matched as given: normalize both first. A stream is read
 * by `WordStream` over the same automaton.
 *
 * @example
 * ```ts
 * // internal: not exported
 * const matcher = new WordMatcher(['pass', 'secret plan']);
 * matcher.find('my passport'); // undefined
 * matcher.find('the secret plan!'); // 'secret plan'
 * ```
 * @internal
 */
export class WordMatcher {
  /**
   * Automaton transitions (goto and failure) taken by the last {@link WordMatcher.find},
   * for tests that pin linearity without timing anything.
   */
  lastSteps = 0;
  /** The automaton, shared with the streams of this word list. */
  readonly automaton: WordAutomaton;

  /** @param words The (normalized, non-empty) words; duplicates are fine. */
  constructor(readonly words: readonly string[]) {
    this.automaton = new WordAutomaton(words);
  }

  /**
   * The first word, scanning left to right, that occurs as a whole word in `text`.
   * @param text The (normalized) text.
   * @param openEnd Whether more text may follow (a stream's window): a word that ends at
   * the end of `text` is not a match yet, since the next character could continue it.
   * @returns The word as given to the constructor, or `undefined`.
   */
  find(text: string, openEnd = false): string | undefined {
    const { automaton } = this;
    const before = automaton.steps;
    let state = WordAutomaton.ROOT;
    let previousIsWord = false;
    let candidate = -1;
    let found = -1;
    for (let i = 0; i < text.length && found < 0; i++) {
      let codePoint = text.charCodeAt(i);
      if (codePoint >= 0xd800 && codePoint <= 0xdbff && i + 1 < text.length) {
        codePoint = text.codePointAt(i) ?? codePoint;
        if (codePoint > 0xffff) i++;
      }
      const isWord = isWordCodePoint(codePoint);
      if (candidate >= 0 && !isWord) found = candidate;
      if (!previousIsWord) state = automaton.step(state, BOUNDARY);
      state = automaton.step(state, codePoint);
      candidate = automaton.wordAt(state);
      previousIsWord = isWord;
    }
    if (found < 0 && candidate >= 0 && !openEnd) found = candidate;
    this.lastSteps = automaton.steps - before;
    return found < 0 ? undefined : this.words[found];
  }
}
