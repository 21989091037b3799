import type { MetadataValue } from './document.js';
import type { FilterExpression } from './filter-expression.js';

/**
 * Whether metadata passes a filter, with the semantics every store shares: a missing key
 * reads as `null` (so `key == null` matches it and `key != 'x'` is true), `<`, `<=`, `>`,
 * `>=` hold only between two numbers or two strings, and `IN`/`NIN` use `==`.
 *
 * @example
 * ```ts
 * import { matchesFilter, parseFilterExpression } from 'rx-advisors/rag';
 * matchesFilter(parseFilterExpression('year >= 2020'), { year: 2024 }); // true
 * ```
 * @param filter The parsed filter.
 * @param metadata A document's metadata.
 * @returns `true` when the document passes.
 */
export function matchesFilter(
  filter: FilterExpression,
  metadata: Readonly<Record<string, MetadataValue>>,
): boolean {
  switch (filter.type) {
    case 'and':
      return matchesFilter(filter.left, metadata) && matchesFilter(filter.right, metadata);
    case 'or':
      return matchesFilter(filter.left, metadata) || matchesFilter(filter.right, metadata);
    case 'not':
      return !matchesFilter(filter.operand, metadata);
    case 'in':
      return filter.values.includes(read(metadata, filter.key));
    case 'nin':
      return !filter.values.includes(read(metadata, filter.key));
    case 'compare':
      return compare(read(metadata, filter.key), filter.operator, filter.value);
    default: {
      const unknown: never = filter;
      throw new TypeError(`Unknown filter node ${JSON.stringify(unknown)}`);
    }
  }
}

function read(metadata: Readonly<Record<string, MetadataValue>>, key: string): MetadataValue {
  return Object.hasOwn(metadata, key) ? (metadata[key] ?? null) : null;
}

function compare(actual: MetadataValue, operator: string, expected: MetadataValue): boolean {
  if (operator === '==') return actual === expected;
  if (operator === '!=') return actual !== expected;
  const comparable =
    (typeof actual === 'number' && typeof expected === 'number') ||
    (typeof actual === 'string' && typeof expected === 'string');
  if (!comparable) return false;
  if (operator === '<') return actual < expected;
  if (operator === '<=') return actual <= expected;
  if (operator === '>') return actual > expected;
  return actual >= expected;
}
