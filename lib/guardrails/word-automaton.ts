/** The virtual symbol read at every word start (see {@link WordAutomaton}). */
export const BOUNDARY = -1;
/** Letters, combining marks, digits and connector punctuation (`_`) make up words. */
const WORD_CHAR = /[\p{L}\p{M}\p{N}\p{Pc}]/u;

/**
 * An Aho–Corasick automaton over code points for whole-word matching, in flat arrays (one
 * index per trie node), built once per word list: construction O(total length of the words),
 * and a transition costs O(1) amortized, whatever the number of words.
 *
 * Whole words without backtracking: a reader feeds the virtual {@link BOUNDARY} symbol before
 * every code point that follows a non-word code point (and at the start of the text), and each
 * word is stored as it is read that way, starting with BOUNDARY. A word can therefore only be
 * recognised where it starts at a word boundary; every node that recognises a word knows it in
 * O(1) (`word`, inherited along failure links), and the end boundary is one look-ahead, left
 * to the reader (`WordMatcher` on a whole text, `WordStream` on a stream). Word code points
 * are letters, marks, digits and connector punctuation (`\p{L}\p{M}\p{N}\p{Pc}`).
 *
 * @example
 * ```ts
 * // internal: not exported
 * const automaton = new WordAutomaton(['pass']);
 * let state = automaton.step(WordAutomaton.ROOT, BOUNDARY);
 * for (const char of 'pass') state = automaton.step(state, char.codePointAt(0)!);
 * automaton.wordAt(state); // 0
 * ```
 * @internal
 */
export class WordAutomaton {
  static readonly ROOT = 0;
  /** Transitions taken (goto and failure), for tests that pin linearity without timing. */
  steps = 0;
  /** The symbol of a node's only child (most nodes of a word trie have one). */
  private readonly symbol: number[] = [0];
  /** A node's only child, or -1. */
  private readonly only: number[] = [-1];
  /** A node's children once it has two or more. */
  private readonly many: (Map<number, number> | undefined)[] = [undefined];
  private readonly fail: number[] = [0];
  /** The index of a word that ends here or at a node on the failure chain, else -1. */
  private readonly word: number[] = [-1];
  /** Symbols from the root to the node. */
  private readonly depth: number[] = [0];
  /** The largest depth: a stream keeps the positions of that many symbols. */
  readonly maxDepth: number;

  /** @param words The (normalized, non-empty) words; duplicates are fine. */
  constructor(words: readonly string[]) {
    words.forEach((word, index) => this.insert(word, index));
    this.link();
    this.maxDepth = Math.max(0, ...this.depth);
  }

  /**
   * The node after reading `symbol` in `from`.
   * @param from A node.
   * @param symbol A code point or {@link BOUNDARY}.
   * @returns The next node.
   */
  step(from: number, symbol: number): number {
    for (let state = from; ; state = this.fail[state]) {
      this.steps++;
      const target = this.childOf(state, symbol);
      if (target >= 0) return target;
      if (state === WordAutomaton.ROOT) return WordAutomaton.ROOT;
    }
  }

  /**
   * @param state A node.
   * @returns The index of a word that ends at `state`, or -1.
   */
  wordAt(state: number): number {
    return this.word[state];
  }

  /**
   * @param state A node.
   * @returns How many symbols it is from the root (the length of the text it stands for).
   */
  depthOf(state: number): number {
    return this.depth[state];
  }

  private childOf(node: number, symbol: number): number {
    const many = this.many[node];
    if (many !== undefined) return many.get(symbol) ?? -1;
    return this.symbol[node] === symbol ? this.only[node] : -1;
  }

  private addChild(node: number, symbol: number): number {
    const child = this.symbol.length;
    this.symbol.push(0);
    this.only.push(-1);
    this.many.push(undefined);
    this.fail.push(0);
    this.word.push(-1);
    this.depth.push(this.depth[node] + 1);
    const many = this.many[node];
    if (many !== undefined) {
      many.set(symbol, child);
    } else if (this.only[node] < 0) {
      this.symbol[node] = symbol;
      this.only[node] = child;
    } else {
      this.many[node] = new Map([
        [this.symbol[node], this.only[node]],
        [symbol, child],
      ]);
      this.only[node] = -1;
    }
    return child;
  }

  private children(node: number): Iterable<[number, number]> {
    const many = this.many[node];
    if (many !== undefined) return many;
    return this.only[node] < 0 ? [] : [[this.symbol[node], this.only[node]]];
  }

  private insert(word: string, index: number): void {
    let node = WordAutomaton.ROOT;
    for (const symbol of symbolsOf(word)) {
      const child = this.childOf(node, symbol);
      node = child >= 0 ? child : this.addChild(node, symbol);
    }
    if (this.word[node] < 0) this.word[node] = index;
  }

  /** Breadth-first failure links; a node inherits the word of its failure target. */
  private link(): void {
    const queue: number[] = [];
    for (const [, child] of this.children(WordAutomaton.ROOT)) {
      this.fail[child] = WordAutomaton.ROOT;
      queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head];
      for (const [symbol, child] of this.children(node)) {
        let fail = this.fail[node];
        while (fail !== WordAutomaton.ROOT && this.childOf(fail, symbol) < 0) fail = this.fail[fail];
        const target = this.childOf(fail, symbol);
        this.fail[child] = target < 0 ? WordAutomaton.ROOT : target;
        if (this.word[child] < 0) this.word[child] = this.word[this.fail[child]];
        queue.push(child);
      }
    }
  }
}

/** The symbols the automaton reads for `word` when it starts at a word boundary. */
function symbolsOf(word: string): number[] {
  const symbols = [BOUNDARY];
  let previousIsWord = true;
  for (const char of word) {
    const codePoint = char.codePointAt(0) ?? 0;
    if (!previousIsWord) symbols.push(BOUNDARY);
    symbols.push(codePoint);
    previousIsWord = isWordCodePoint(codePoint);
  }
  return symbols;
}

/**
 * Whether a code point is part of a word (`\p{L}\p{M}\p{N}\p{Pc}`); a table for ASCII.
 * @example
 * ```ts
 * // internal: not exported
 * isWordCodePoint(0x61); // true ('a')
 * ```
 * @param codePoint The code point.
 * @returns Whether it is a word character.
 * @internal
 */
export function isWordCodePoint(codePoint: number): boolean {
  if (codePoint < 0x80) return ASCII_WORD[codePoint] === 1;
  let known = WORD_CACHE.get(codePoint);
  if (known === undefined) {
    known = WORD_CHAR.test(String.fromCodePoint(codePoint));
    if (WORD_CACHE.size < CACHE_LIMIT) WORD_CACHE.set(codePoint, known);
  }
  return known;
}

/** Non-ASCII code points seen so far (a text's alphabet is small); bounded. */
const WORD_CACHE = new Map<number, boolean>();
const CACHE_LIMIT = 8192;

/**
 * 1 for the ASCII word characters: digits, letters, `_`.
 * @internal
 */
export const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, code) =>
  (code >= 0x30 && code <= 0x39) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x61 && code <= 0x7a) ||
  code === 0x5f
    ? 1
    : 0,
);
