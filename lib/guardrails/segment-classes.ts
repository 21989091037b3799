const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;
const MARK = /\p{M}/u;

/**
 * The folding removes it before anything else (`Default_Ignorable_Code_Point`).
 * @internal
 */
export const IGNORED = 1;
/**
 * Text before it and text from it fold independently: the first code point of its
 * compatibility decomposition is not a mark and does not compose with what precedes it (the
 * Hangul vowel and trailing jamo are the starters that do), so no normalization step reaches
 * across.
 * @internal
 */
export const STARTS_SEGMENT = 2;

/** Non-ASCII code points seen so far (a text's alphabet is small); bounded. */
const CACHE = new Map<number, number>();
const CACHE_LIMIT = 8192;

/**
 * How `WordStream` treats a non-ASCII code point: {@link IGNORED}, {@link STARTS_SEGMENT} or
 * neither (0: it belongs to the segment before it, a combining mark for instance). Every ASCII
 * character starts a segment. Cached per code point.
 *
 * @example
 * ```ts
 * // internal: not exported
 * classOf(0x301); // 0 (a combining acute accent joins the letter before it)
 * classOf(0x200b); // IGNORED (zero-width space)
 * classOf(0xe9); // STARTS_SEGMENT ('é')
 * ```
 * @param codePoint A code point ≥ 0x80.
 * @returns Its class.
 * @internal
 */
export function classOf(codePoint: number): number {
  let known = CACHE.get(codePoint);
  if (known === undefined) {
    known = compute(codePoint);
    if (CACHE.size < CACHE_LIMIT) CACHE.set(codePoint, known);
  }
  return known;
}

function compute(codePoint: number): number {
  const char = String.fromCodePoint(codePoint);
  if (IGNORABLE.test(char)) return IGNORED;
  const first = char.normalize('NFKD').codePointAt(0) ?? codePoint;
  const isJamo = (first >= 0x1160 && first <= 0x11ff) || (first >= 0xd7b0 && first <= 0xd7ff);
  return isJamo || MARK.test(String.fromCodePoint(first)) ? 0 : STARTS_SEGMENT;
}
