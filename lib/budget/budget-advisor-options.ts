import { Order } from '../advisor-api/order.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/**
 * The price of one model, per million tokens, in the unit of your choice (the cost limit
 * is in the same unit).
 * @example
 * ```ts
 * import type { ModelPrice } from 'rx-advisors';
 * const gpt4oMini: ModelPrice = { inputPerMillion: 0.15, outputPerMillion: 0.6 };
 * ```
 */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/**
 * Options of `BudgetAdvisor`: at least one limit. A model call that would cross a token or
 * cost limit is cut off mid-stream (its request aborted); past the wall time, the call or
 * tool running is cut off; past the tool calls, the call is refused.
 * @example
 * ```ts
 * import { BudgetAdvisor } from 'rx-advisors';
 * const budget = new BudgetAdvisor({
 *   maxTotalTokens: 50_000,
 *   maxCost: 0.25,
 *   prices: { 'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 } },
 *   maxWallTime: 60_000,
 *   maxToolCalls: 20,
 * });
 * ```
 */
export interface BudgetAdvisorOptions {
  /** Default `'BudgetAdvisor'`. */
  name?: string;
  /** Default `Order.HIGHEST_PRECEDENCE + 100`: outside memory and the tool loop, so every round counts. */
  order?: number;
  maxInputTokens?: number;
  maxOutputTokens?: number;
  maxTotalTokens?: number;
  /** In the unit of `prices`; needs `prices`. */
  maxCost?: number;
  /**
   * Price per model name; a name is matched exactly, else by the longest entry it starts
   * with (`gpt-4o` prices `gpt-4o-2024-08-06`), else by the `'*'` entry. The name is the
   * request's `options.model`, else the model the provider reports.
   */
  prices?: Readonly<Record<string, ModelPrice>>;
  /** Milliseconds (RxJS scheduler time) from the run's start. */
  maxWallTime?: number;
  /** Tool calls of the run, nested runs' included. */
  maxToolCalls?: number;
  /**
   * Tokens of a piece of text, to count a call as it streams (corrected by the usage the
   * provider reports); default `text.length / 4`.
   */
  estimateTokens?: (text: string) => number;
  /**
   * `error` (default): the run fails with a `BudgetExceededError`; `finish`: the run ends
   * with what it has, a `finish` chunk with reason `length`, and
   * `stopReason: { type: 'budget-exceeded', ... }` on the final `metadata` chunk.
   */
  onExceeded?: 'error' | 'finish';
}

/** @internal */
export type ResolvedBudgetOptions = Required<
  Pick<BudgetAdvisorOptions, 'name' | 'order' | 'estimateTokens' | 'onExceeded' | 'prices'>
> &
  BudgetAdvisorOptions;

const DEFAULTS = Object.freeze({
  name: 'BudgetAdvisor',
  order: Order.HIGHEST_PRECEDENCE + 100,
  estimateTokens: (text: string): number => text.length / 4,
  onExceeded: 'error' as const,
  prices: Object.freeze({}) as Readonly<Record<string, ModelPrice>>,
});

const count = Rules.number(0);
const RULES: OptionRules<BudgetAdvisorOptions> = {
  name: Rules.nonEmptyString,
  order: Rules.custom('a number (see Order)', (v) => typeof v === 'number' && !Number.isNaN(v)),
  maxInputTokens: count,
  maxOutputTokens: count,
  maxTotalTokens: count,
  maxCost: count,
  prices: Rules.custom(
    'an object of { inputPerMillion, outputPerMillion } (non-negative numbers) per model name',
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      Object.values(value).every(
        (price: Partial<ModelPrice>) =>
          typeof price === 'object' &&
          price !== null &&
          typeof price.inputPerMillion === 'number' &&
          price.inputPerMillion >= 0 &&
          typeof price.outputPerMillion === 'number' &&
          price.outputPerMillion >= 0,
      ),
  ),
  maxWallTime: Rules.positive,
  maxToolCalls: Rules.integer(0),
  estimateTokens: Rules.func,
  onExceeded: Rules.oneOf('error', 'finish'),
};

const LIMITS = [
  'maxInputTokens',
  'maxOutputTokens',
  'maxTotalTokens',
  'maxCost',
  'maxWallTime',
  'maxToolCalls',
] as const;

/**
 * Applies defaults and rejects bad values (and a budget without a limit, or a cost limit
 * without prices) with an `InvalidOptionsError`.
 * @internal
 */
export function resolveBudgetOptions(options: BudgetAdvisorOptions): ResolvedBudgetOptions {
  const resolved = withDefaults(DEFAULTS, validateOptions(options, RULES));
  if (LIMITS.every((limit) => resolved[limit] === undefined)) {
    throw new InvalidOptionsError({
      option: 'BudgetAdvisorOptions',
      value: options,
      expected: `at least one limit (${LIMITS.join(', ')})`,
    });
  }
  if (resolved.maxCost !== undefined && Object.keys(resolved.prices).length === 0) {
    throw new InvalidOptionsError({
      option: 'prices',
      value: options.prices,
      expected: 'a price per model name (or a "*" entry) when maxCost is set',
    });
  }
  return resolved;
}

/**
 * The price of a model name: exact, else the longest entry it starts with, else `'*'`.
 * @internal
 */
export function priceOf(
  prices: Readonly<Record<string, ModelPrice>>,
  model: string | undefined,
): ModelPrice | undefined {
  if (model !== undefined) {
    if (Object.hasOwn(prices, model)) return prices[model];
    let best: string | undefined;
    for (const name of Object.keys(prices)) {
      if (model.startsWith(name) && (best === undefined || name.length > best.length)) best = name;
    }
    if (best !== undefined) return prices[best];
  }
  return Object.hasOwn(prices, '*') ? prices['*'] : undefined;
}
