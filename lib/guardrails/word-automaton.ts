/**
 * The virtual symbol read at every word start (see {@link WordAutomaton}).
 * @internal
 */
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
  /** The largest depth: a stream keeps the positions of that many symbols. */
  readonly maxDepth: number;
  /** Node `n`'s children are `targets[first[n] .. first[n + 1])`, sorted by `symbols`. */
  private readonly first: Int32Array;
  private readonly symbols: Int32Array;
  private readonly targets: Int32Array;
  private readonly fail: Int32Array;
  /** The index of a word that ends at the node or at a node on its failure chain, else -1. */
  private readonly word: Int32Array;
  /** Symbols from the root to the node. */
  private readonly depth: Int32Array;

  /** @param words The (normalized, non-empty) words; duplicates are fine. */
  constructor(words: readonly string[]) {
    const trie = buildTrie(words);
    const count = trie.children.length;
    this.first = new Int32Array(count + 1);
    this.symbols = new Int32Array(count - 1);
    this.targets = new Int32Array(count - 1);
    let edge = 0;
    for (let node = 0; node < count; node++) {
      this.first[node] = edge;
      for (const [symbol, child] of [...trie.children[node]].sort((a, b) => a[0] - b[0])) {
        this.symbols[edge] = symbol;
        this.targets[edge++] = child;
      }
    }
    this.first[count] = edge;
    this.word = Int32Array.from(trie.word);
    this.depth = Int32Array.from(trie.depth);
    this.fail = new Int32Array(count);
    this.link();
    this.maxDepth = Math.max(0, ...trie.depth);
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

  /** A linear scan over a few children, a binary search over many. */
  private childOf(node: number, symbol: number): number {
    const { symbols } = this;
    let low = this.first[node];
    let high = this.first[node + 1];
    if (high - low <= 8) {
      for (; low < high; low++) if (symbols[low] === symbol) return this.targets[low];
      return -1;
    }
    while (low < high) {
      const middle = (low + high) >>> 1;
      const value = symbols[middle];
      if (value === symbol) return this.targets[middle];
      if (value < symbol) low = middle + 1;
      else high = middle;
    }
    return -1;
  }

  /** Breadth-first failure links; a node inherits the word of its failure target. */
  private link(): void {
    const { first, symbols, targets, fail, word } = this;
    const queue: number[] = [WordAutomaton.ROOT];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head];
      for (let edge = first[node]; edge < first[node + 1]; edge++) {
        const child = targets[edge];
        let target = WordAutomaton.ROOT;
        if (node !== WordAutomaton.ROOT) {
          let state = fail[node];
          while (state !== WordAutomaton.ROOT && this.childOf(state, symbols[edge]) < 0) {
            state = fail[state];
          }
          target = Math.max(WordAutomaton.ROOT, this.childOf(state, symbols[edge]));
        }
        fail[child] = target;
        if (word[child] < 0) word[child] = word[target];
        queue.push(child);
      }
    }
  }
}

/** The trie of the words, as read (see {@link symbolsOf}), before it is laid out flat. */
function buildTrie(words: readonly string[]): {
  children: Map<number, number>[];
  word: number[];
  depth: number[];
} {
  const children = [new Map<number, number>()];
  const word = [-1];
  const depth = [0];
  words.forEach((text, index) => {
    let node = WordAutomaton.ROOT;
    for (const symbol of symbolsOf(text)) {
      let child = children[node].get(symbol);
      if (child === undefined) {
        child = children.length;
        children.push(new Map());
        word.push(-1);
        depth.push(depth[node] + 1);
        children[node].set(symbol, child);
      }
      node = child;
    }
    if (word[node] < 0) word[node] = index;
  });
  return { children, word, depth };
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
