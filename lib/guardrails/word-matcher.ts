/** The virtual symbol fed to the automaton at every word start (see {@link WordMatcher}). */
const BOUNDARY = -1;
/** Letters, combining marks, digits and connector punctuation (`_`) make up words. */
const WORD_CHAR = /[\p{L}\p{M}\p{N}\p{Pc}]/u;

/**
 * A trie node. Most nodes of a word trie have one child, so that child is kept inline
 * (`symbol`, `only`) and a `Map` is made only for a second one: a third of the memory.
 */
interface TrieNode {
  symbol: number;
  only: TrieNode | undefined;
  many: Map<number, TrieNode> | undefined;
  fail: TrieNode | undefined;
  /** The index of a word that ends here or at a node on the failure chain, else -1. */
  word: number;
}

const newNode = (): TrieNode => ({
  symbol: 0,
  only: undefined,
  many: undefined,
  fail: undefined,
  word: -1,
});

function childOf(node: TrieNode, symbol: number): TrieNode | undefined {
  if (node.many !== undefined) return node.many.get(symbol);
  return node.symbol === symbol ? node.only : undefined;
}

function addChild(node: TrieNode, symbol: number, child: TrieNode): void {
  if (node.many === undefined && node.only === undefined) {
    node.symbol = symbol;
    node.only = child;
    return;
  }
  if (node.many === undefined && node.only !== undefined) {
    node.many = new Map([[node.symbol, node.only]]);
    node.only = undefined;
  }
  node.many?.set(symbol, child);
}

function childrenOf(node: TrieNode): Iterable<[number, TrieNode]> {
  if (node.many !== undefined) return node.many;
  return node.only === undefined ? [] : [[node.symbol, node.only]];
}

/**
 * Finds whole-word occurrences of many words in a text in one pass: an Aho–Corasick
 * automaton over code points, built once, so a scan costs O(text length) whatever the
 * number or length of the words, and the construction O(total length of the words).
 *
 * Whole words without backtracking: the automaton reads a virtual BOUNDARY symbol before
 * every code point that follows a non-word code point (and at the start of the text),
 * and each word is stored as it would be read that way, starting with BOUNDARY. A word
 * can therefore only be recognised where it starts at a word boundary, every state that
 * recognises any word knows it in O(1) (`word`, inherited along failure links), and the
 * end boundary is one look-ahead. Word code points are letters, marks, digits and
 * connector punctuation (`\p{L}\p{M}\p{N}\p{Pc}`): the regular expression
 * `(?<![\p{L}\p{N}_])word(?![\p{L}\p{N}_])` this replaces, with combining marks (kept
 * when `stripMarks` is off) and other connector punctuation counted as word characters.
 *
 * Texts and words are matched as given: normalize both first.
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
  private readonly root = newNode();

  /** @param words The (normalized, non-empty) words; duplicates are fine. */
  constructor(private readonly words: readonly string[]) {
    words.forEach((word, index) => this.insert(word, index));
    this.link();
  }

  /**
   * The first word, scanning left to right, that occurs as a whole word in `text`.
   * @param text The (normalized) text.
   * @param openEnd Whether more text may follow (a stream's window): a word that ends at
   * the end of `text` is not a match yet, since the next character could continue it.
   * @returns The word as given to the constructor, or `undefined`.
   */
  find(text: string, openEnd = false): string | undefined {
    const codePoints = Array.from(text, (char) => char.codePointAt(0) ?? 0);
    let state = this.root;
    let previousIsWord = false;
    this.lastSteps = 0;
    for (let i = 0; i < codePoints.length; i++) {
      const codePoint = codePoints[i];
      if (!previousIsWord) state = this.step(state, BOUNDARY);
      state = this.step(state, codePoint);
      const after = codePoints[i + 1];
      const ended = after === undefined ? !openEnd : !isWordCodePoint(after);
      if (state.word >= 0 && ended) {
        return this.words[state.word];
      }
      previousIsWord = isWordCodePoint(codePoint);
    }
    return undefined;
  }

  private step(from: TrieNode, symbol: number): TrieNode {
    for (let state: TrieNode | undefined = from; state !== undefined; state = state.fail) {
      this.lastSteps++;
      const target = childOf(state, symbol);
      if (target !== undefined) return target;
    }
    return this.root;
  }

  private insert(word: string, index: number): void {
    let node = this.root;
    for (const symbol of symbolsOf(word)) {
      let child = childOf(node, symbol);
      if (child === undefined) {
        child = newNode();
        addChild(node, symbol, child);
      }
      node = child;
    }
    if (node.word < 0) node.word = index;
  }

  /** Breadth-first failure links; a node inherits the word of its failure target. */
  private link(): void {
    const queue: TrieNode[] = [];
    for (const [, child] of childrenOf(this.root)) {
      child.fail = this.root;
      queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head];
      for (const [symbol, child] of childrenOf(node)) {
        let fail = node.fail;
        while (fail !== undefined && childOf(fail, symbol) === undefined) fail = fail.fail;
        const target = (fail === undefined ? undefined : childOf(fail, symbol)) ?? this.root;
        child.fail = target;
        if (child.word < 0) child.word = target.word;
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

function isWordCodePoint(codePoint: number): boolean {
  if (codePoint < 0x80) {
    return (
      (codePoint >= 0x30 && codePoint <= 0x39) ||
      (codePoint >= 0x41 && codePoint <= 0x5a) ||
      (codePoint >= 0x61 && codePoint <= 0x7a) ||
      codePoint === 0x5f
    );
  }
  return WORD_CHAR.test(String.fromCodePoint(codePoint));
}
