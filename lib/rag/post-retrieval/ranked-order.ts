/**
 * Reads a re-ranker's answer as an order of the documents it was shown, numbered from 1:
 * the first `[…]` of the answer (`{"ids": [3, 1]}`, `[3, 1]`, fenced or inside prose),
 * split at commas, each item a number or a quoted number. Anything else is ignored: items
 * that are not numbers, numbers outside `1..count`, repeats. No JSON parser runs over the
 * model's text (one linear scan), so nothing in it can nest deeply or name `__proto__`.
 * @internal
 * @param answer The model's answer.
 * @param count How many documents the model was shown.
 * @returns Zero-based positions, in the model's order, each at most once; possibly empty.
 */
export function readRankedOrder(answer: string, count: number): number[] {
  const open = answer.indexOf('[');
  const close = open < 0 ? -1 : answer.indexOf(']', open);
  if (close < 0) return [];
  const order: number[] = [];
  const seen = new Set<number>();
  for (const item of answer.slice(open + 1, close).split(',')) {
    const text = item.trim();
    const quoted = text.length >= 2 && text.startsWith('"') && text.endsWith('"');
    const digits = quoted ? text.slice(1, -1).trim() : text;
    if (!/^\d{1,9}$/.test(digits)) continue;
    const position = Number(digits) - 1;
    if (position < 0 || position >= count || seen.has(position)) continue;
    seen.add(position);
    order.push(position);
  }
  return order;
}

/**
 * The documents in the ranked order, then those the ranking left out, in their own order:
 * a ranking that misses documents (or is empty) never loses one.
 * @internal
 * @param documents The documents, as they were shown.
 * @param order Zero-based positions from {@link readRankedOrder}.
 * @returns Every document once.
 */
export function applyRankedOrder<T>(documents: readonly T[], order: readonly number[]): T[] {
  const ranked = new Set(order);
  const rest = documents.filter((_, position) => !ranked.has(position));
  return [...order.map((position) => documents[position]), ...rest];
}
