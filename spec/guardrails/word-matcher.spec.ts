import { normalizeForMatching } from '../../lib/guardrails/normalize-for-matching';
import { WordMatcher } from '../../lib/guardrails/word-matcher';

/** Deterministic pseudo-random words, so a failure can be replayed. */
function randomWords(count: number, seed = 7): string[] {
  let state = seed;
  const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () => {
    let word = '';
    const length = 4 + Math.floor(next() * 7);
    for (let i = 0; i < length; i++) word += String.fromCharCode(97 + Math.floor(next() * 26));
    return word;
  });
}

/** The regular expression the matcher replaces: the reference for whole-word semantics. */
function reference(words: readonly string[], text: string): boolean {
  const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(
    `(?<![\\p{L}\\p{M}\\p{N}\\p{Pc}])(?:${escaped.join('|')})(?![\\p{L}\\p{M}\\p{N}\\p{Pc}])`,
    'u',
  ).test(text);
}

describe('WordMatcher', () => {
  it('finds whole words only, and reports the word found', () => {
    const matcher = new WordMatcher(['pass', 'secret plan', 'c++']);
    expect(matcher.find('a passport, a bypass, pass_word')).toBeUndefined();
    expect(matcher.find('may I pass?')).toBe('pass');
    expect(matcher.find('the secret plan.')).toBe('secret plan');
    expect(matcher.find('the secret planet')).toBeUndefined();
    expect(matcher.find('c++x')).toBeUndefined();
    expect(matcher.find('in c++')).toBe('c++');
    expect(matcher.find('')).toBeUndefined();
  });

  it('treats astral letters as word characters', () => {
    const matcher = new WordMatcher(['ab']);
    expect(matcher.find('𝐀ab')).toBeUndefined();
    expect(matcher.find('😀ab😀')).toBe('ab');
  });

  it('agrees with the whole-word regular expression on overlapping words', () => {
    const words = ['a', 'a a', 'b a a', 'ab', 'aab', 'a+', 'x y z', 'y'];
    const texts = ['b a a', 'aab', 'ba', 'a+b', 'xa+', 'x y zz', 'x yy', 'aa b a', 'zab a+'];
    for (const text of texts) {
      for (let n = 1; n <= words.length; n++) {
        const list = words.slice(n - 1);
        expect([text, list, new WordMatcher(list).find(text) !== undefined]).toEqual([
          text,
          list,
          reference(list, text),
        ]);
      }
    }
  });

  it('agrees with the regular expression on random words and texts', () => {
    const words = randomWords(300).map((w, i) => (i % 7 === 0 ? `${w} ${w.slice(0, 2)}` : w));
    const matcher = new WordMatcher(words);
    const vocabulary = [...randomWords(40, 99), ...words.slice(0, 10)];
    for (let t = 0; t < 200; t++) {
      const text = Array.from(
        { length: 8 },
        (_, i) => vocabulary[(t * 31 + i * 17) % vocabulary.length],
      ).join(t % 3 === 0 ? ' ' : ', ');
      expect([text, matcher.find(text) !== undefined]).toEqual([text, reference(words, text)]);
    }
  });

  it('scans a 100 KB text against 10,000 words in a bounded number of steps per character', () => {
    const words = randomWords(10_000).map((w) => normalizeForMatching(w, { stripMarks: true }));
    const matcher = new WordMatcher(words);
    const text = 'lorem ipsum dolor sit amet '.repeat(3_800);
    expect(matcher.find(text)).toBeUndefined();
    // at most 2 symbols a code point (the code point and a word-start mark), and the
    // failure transitions never outnumber the forward ones
    expect(matcher.lastSteps).toBeLessThanOrEqual(4 * text.length);
    expect(matcher.find(`${text} ${words[9_999]}`)).toBe(words[9_999]);
  });

  it('stays linear on word lists built to defeat suffix matching', () => {
    // words "a…a b", "a…a b b", …: each ends where many others end, mid-word starts
    const words: string[] = [];
    for (let k = 1; k <= 60; k++) {
      for (let j = 1; j <= 60; j++) words.push(`${'a'.repeat(k)}${' b'.repeat(j)}`);
    }
    const matcher = new WordMatcher(words);
    const text = `z${'a'.repeat(61)}${' b'.repeat(61)} `.repeat(400);
    expect(matcher.find(text)).toBeUndefined();
    expect(matcher.lastSteps).toBeLessThanOrEqual(4 * text.length);
    expect(matcher.find(`${text} aa b b`)).toBe('aa b');
  });
});
