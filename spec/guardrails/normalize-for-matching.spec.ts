import { normalizeForMatching } from '../../lib/guardrails/normalize-for-matching';

const strip = { stripMarks: true };
const keep = { stripMarks: false };

describe('normalizeForMatching', () => {
  it.each([
    ['case', 'PassWord', 'password'],
    ['full case folding', 'Straße STRAẞE ſ', 'strasse strasse s'],
    ['Greek final sigma', 'ΟΔΟΣ οδος', 'οδοσ οδοσ'],
    ['compatibility forms', 'ｐａｓｓ ﬁle ①', 'pass file 1'],
    [
      'zero-width characters and soft hyphens',
      'p\u200Ba\u200Cs\u200Ds\u2060\uFEFFw\u00ADord',
      'password',
    ],
    ['combining marks', 'Café naïve cafe\u0301', 'cafe naive cafe'],
    ['whitespace runs', 'a \t\n\u00A0 b', 'a b'],
    ['Hangul stays composed', '한국어', '한국어'],
  ])('%s', (_, text, expected) => {
    expect(normalizeForMatching(text, strip)).toBe(expected);
  });

  it('keeps combining marks, composed, with stripMarks: false', () => {
    expect(normalizeForMatching('CAFE\u0301 café', keep)).toBe('café café');
  });

  it('is idempotent', () => {
    const text = 'ＳＴＲＡẞＥ İstanbul ΟΔΟΣ ﬁ\u200B café';
    for (const options of [strip, keep]) {
      const once = normalizeForMatching(text, options);
      expect(normalizeForMatching(once, options)).toBe(once);
    }
  });
});
