/** Invisible code points a sender can slip inside a word: zero-width characters, soft hyphens, … */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const MARKS = /\p{M}/gu;
const WHITESPACE = /\s+/gu;

/** How {@link normalizeForMatching} folds a text. */
export interface MatchNormalization {
  /** Whether combining marks are removed after canonical decomposition (`café` = `cafe`). */
  readonly stripMarks: boolean;
}

/**
 * The form in which `SafeGuardAdvisor` compares sensitive words with a message: both sides
 * go through it, so a word matches however the sender spells it within these rules.
 *
 * 1. Default-ignorable code points (zero-width space/joiners, word joiner, BOM, soft
 *    hyphen, variation selectors) are removed.
 * 2. NFKC: compatibility forms fold to their plain letters (`ｐａｓｓ` and `ﬁ` become
 *    `pass` and `fi`).
 * 3. Case: lower-, upper-, then lower-casing, which folds like Unicode full case folding
 *    (`ß` = `ẞ` = `ss`, `ſ` = `s`), plus final sigma folded to `σ`; NFKC again.
 * 4. With `stripMarks`: NFD, then every combining mark is removed (`café` = `cafe`).
 * 5. Every run of whitespace becomes one space.
 *
 * Linear in the length of `text`.
 *
 * @example
 * ```ts
 * // internal: not exported from 'rx-advisors'
 * normalizeForMatching('Pa\u00ADss Ｗｏｒｄ Café', { stripMarks: true }); // 'pass word cafe'
 * ```
 * @param text Any text.
 * @param normalization Whether to strip combining marks.
 * @returns The normalized text.
 * @internal
 */
export function normalizeForMatching(text: string, normalization: MatchNormalization): string {
  return foldForMatching(text, normalization).replace(WHITESPACE, ' ');
}

/**
 * Steps 1 to 4 of {@link normalizeForMatching}, without the whitespace step: what a stream
 * applies to each segment of text (see `WordStream`), collapsing whitespace itself.
 * @example
 * ```ts
 * // internal: not exported from 'rx-advisors'
 * foldForMatching('E\u0301  ', { stripMarks: true }); // 'e  '
 * ```
 * @param text Any text.
 * @param normalization Whether to strip combining marks.
 * @returns The folded text.
 * @internal
 */
export function foldForMatching(text: string, normalization: MatchNormalization): string {
  const folded = text
    .replace(IGNORABLE, '')
    .normalize('NFKC')
    .toLowerCase()
    .toUpperCase()
    .toLowerCase()
    .replace(/ς/g, 'σ')
    .normalize('NFKC');
  return normalization.stripMarks
    ? folded.normalize('NFD').replace(MARKS, '').normalize('NFC')
    : folded;
}
