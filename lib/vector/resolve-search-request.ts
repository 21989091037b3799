import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { Rules, validateOptions, type OptionRules } from '../core/validate-options.js';
import type { FilterExpression } from './filter-expression.js';
import { parseFilterExpression, type FilterParseOptions } from './parse-filter-expression.js';
import type { SearchRequest } from './vector-store.js';

/**
 * A search request checked and completed with defaults, the filter parsed: what a store
 * implementation works from.
 *
 * @example
 * ```ts
 * import { resolveSearchRequest } from 'rx-advisors/rag';
 * const { topK, filter } = resolveSearchRequest({ query: 'tea', filter: "kind == 'green'" }, { maxTopK: 100 });
 * ```
 */
export interface ResolvedSearchRequest {
  readonly query: string;
  readonly topK: number;
  readonly similarityThreshold: number;
  readonly filter: FilterExpression | undefined;
}

/** The default `topK` of a search (Spring AI's). */
export const DEFAULT_TOP_K = 4;

/**
 * Checks a {@link SearchRequest} and fills in its defaults, the same for every store.
 *
 * @example
 * ```ts
 * import { resolveSearchRequest } from 'rx-advisors/rag';
 * resolveSearchRequest({ query: 'tea' }, { maxTopK: 100 }).topK; // 4
 * ```
 * @param request The request as the caller gave it.
 * @param limits The store's `maxTopK` and the filter parser's limits.
 * @returns The resolved request.
 * @throws InvalidOptionsError for a bad query, topK or threshold; FilterExpressionError for a bad filter.
 */
export function resolveSearchRequest(
  request: SearchRequest,
  limits: { maxTopK: number } & FilterParseOptions,
): ResolvedSearchRequest {
  const rules: OptionRules<SearchRequest> = {
    query: Rules.custom('a string', (value) => typeof value === 'string'),
    topK: Rules.integer(1, limits.maxTopK),
    similarityThreshold: Rules.number(-1, 1),
  };
  validateOptions(request, rules);
  if (typeof request.query !== 'string') {
    throw new InvalidOptionsError({ option: 'query', value: request.query, expected: 'a string' });
  }
  const { filter } = request;
  return {
    query: request.query,
    topK: request.topK ?? DEFAULT_TOP_K,
    similarityThreshold: request.similarityThreshold ?? -1,
    filter:
      typeof filter === 'string'
        ? parseFilterExpression(filter, limits)
        : (filter satisfies FilterExpression | undefined),
  };
}
