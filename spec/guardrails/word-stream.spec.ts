import { normalizeForMatching } from '../../lib/guardrails/normalize-for-matching';
import { WordMatcher } from '../../lib/guardrails/word-matcher';
import { WordStream } from '../../lib/guardrails/word-stream';
import { seededRandom as random } from '../support/seeded-random';

const WORDS = ['secret', 'sec ret', 'ab', 'café', 'straße', 'file', 'οδος', '가', 'a+', 'x_y'];
/** Pieces of text the words are made of, and what normalization folds: marks, jamo, … */
const ALPHABET = [
  ...'abcefilorstxy+_.-',
  ' ',
  '  ',
  '\t',
  '\u00A0',
  '\u200B',
  '\u00AD',
  '\u0301',
  '\u0338',
  '=',
  'É',
  'E\u0301',
  'SS',
  'ß',
  'ẞ',
  'ﬁ',
  'ｆ',
  'Σ',
  'ς',
  'Ο',
  'δ',
  '가',
  '\u1100',
  '\u1161',
  '\u11A8',
  'ㅏ',
  '😀',
  '𝐀',
  'İ',
  '\u0345',
  'ᾳ',
];

const modes = [{ stripMarks: true }, { stripMarks: false }];

function randomText(next: () => number, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) {
    // now and then a word, so that matches are common
    if (next() < 0.2)
      text += ` ${WORDS[Math.floor(next() * WORDS.length)]}${next() < 0.5 ? ' ' : ''}`;
    else text += ALPHABET[Math.floor(next() * ALPHABET.length)];
  }
  return text;
}

/** Splits at random UTF-16 offsets (surrogate pairs may be cut in two). */
function randomSplit(next: () => number, text: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length;) {
    const size = Math.floor(next() * 6);
    pieces.push(text.slice(i, i + size));
    i += size;
  }
  return pieces;
}

const setup = (normalization: { stripMarks: boolean }) => {
  const matcher = new WordMatcher(WORDS.map((w) => normalizeForMatching(w, normalization)));
  const whole = (text: string) => matcher.find(normalizeForMatching(text, normalization));
  const streamed = (pieces: readonly string[]) => {
    const stream = new WordStream(matcher.automaton, matcher.words, normalization);
    for (const piece of pieces) {
      const found = stream.write(piece);
      if (found !== undefined) return found;
    }
    return stream.end();
  };
  return { matcher, whole, streamed };
};

describe('WordStream', () => {
  it.each(modes)(
    'finds what the whole-text matcher finds, for random texts and splits (%p)',
    (mode) => {
      const { whole, streamed } = setup(mode);
      const next = random(mode.stripMarks ? 41 : 43);
      let matches = 0;
      for (let t = 0; t < 400; t++) {
        const text = randomText(next, 1 + Math.floor(next() * 14));
        const expected = whole(text);
        if (expected !== undefined) matches++;
        expect([text, streamed([text])]).toEqual([text, expected]);
        expect([text, streamed([...text])]).toEqual([text, expected]);
        for (let round = 0; round < 10; round++) {
          const pieces = randomSplit(next, text);
          expect([pieces, streamed(pieces)]).toEqual([pieces, expected]);
        }
      }
      // the texts are not all trivially clean
      expect(matches).toBeGreaterThan(100);
    },
  );

  it.each(modes)('gives the same answer for every split into two and three pieces (%p)', (mode) => {
    const { whole, streamed } = setup(mode);
    const texts = [
      'the SECRET!',
      'a café\u0301 or CAFE\u0301?',
      'STRASSE and Straße',
      'ﬁle file ｆｉｌｅ',
      'ΟΔΟΣ οδος',
      '\u1100\u1161 가',
      's\u200Bec\u00ADret',
      'sec  \t ret.',
      'secrets secret_ secret',
    ];
    for (const text of texts) {
      const expected = whole(text);
      for (let i = 0; i <= text.length; i++) {
        expect([text, i, streamed([text.slice(0, i), text.slice(i)])]).toEqual([text, i, expected]);
        for (let j = i; j <= text.length; j += 2) {
          const pieces = [text.slice(0, i), text.slice(i, j), text.slice(j)];
          expect([pieces, streamed(pieces)]).toEqual([pieces, expected]);
        }
      }
    }
  });

  it.each(modes)('never lets out a character of a word before the word is decided (%p)', (mode) => {
    const { matcher } = setup(mode);
    const next = random(5);
    for (const word of ['secret', 'SEC\u200B RET', 'Straße', 'cafe\u0301']) {
      const prefix = 'a secre sec ';
      const text = `${prefix}${word}.`;
      for (let round = 0; round < 100; round++) {
        const stream = new WordStream(matcher.automaton, matcher.words, mode);
        let written = 0;
        let found: string | undefined;
        for (const piece of randomSplit(next, text)) {
          found = stream.write(piece);
          if (found !== undefined) break;
          written += piece.length;
          // what may leave: everything but what is held
          expect(written - stream.held()).toBeLessThanOrEqual(prefix.length);
        }
        expect(found ?? stream.end()).toBeDefined();
      }
    }
  });

  it('holds nothing when no word is in progress', () => {
    const { matcher } = setup({ stripMarks: true });
    const stream = new WordStream(matcher.automaton, matcher.words, { stripMarks: true });
    expect(stream.write('hello world ')).toBeUndefined();
    expect(stream.held()).toBe(0);
    expect(stream.write('the sec')).toBeUndefined();
    expect(stream.held()).toBe(3);
    expect(stream.write('ond')).toBeUndefined();
    expect(stream.held()).toBe(0);
  });

  it('does a bounded amount of work per character on adversarial inputs (linear)', () => {
    const words: string[] = [];
    for (let k = 1; k <= 40; k++) {
      for (let j = 1; j <= 40; j++) words.push(`${'a'.repeat(k)}${' b'.repeat(j)}`);
    }
    const normalization = { stripMarks: true };
    const matcher = new WordMatcher(words);
    const inputs = [
      `z${'a'.repeat(41)}${' b'.repeat(41)} `.repeat(300),
      'a'.repeat(50_000),
      `${'a\u0301'.repeat(10_000)}`,
      `e${'\u0301'.repeat(50_000)} `,
      ' \u200B'.repeat(30_000),
    ];
    for (const text of inputs) {
      const stream = new WordStream(matcher.automaton, matcher.words, normalization);
      const before = stream.steps;
      for (let i = 0; i < text.length; i += 5) stream.write(text.slice(i, i + 5));
      stream.end();
      // at most 2 symbols a character (the character and a word-start mark), and the
      // failure transitions never outnumber the forward ones
      expect(stream.steps - before).toBeLessThanOrEqual(4 * text.length);
    }
  });
});
