import type { ChatResponse } from './chat-response.js';
import { USAGE_FIELDS, type Usage } from './usage.js';

/**
 * Sums token usage over several model calls (tool rounds, validation attempts).
 * A field that no call reported stays `undefined`.
 *
 * @example
 * ```ts
 * import { UsageAccumulator } from 'rx-advisors';
 *
 * const acc = new UsageAccumulator()
 *   .add({ inputTokens: 10, outputTokens: 1, totalTokens: 11 })
 *   .add({ inputTokens: 20, outputTokens: 2, totalTokens: 22 });
 * acc.total; // { inputTokens: 30, outputTokens: 3, totalTokens: 33 }
 * ```
 */
export class UsageAccumulator {
  private readonly sums: Partial<Record<(typeof USAGE_FIELDS)[number], number>> = {};
  private count = 0;

  /**
   * Adds one call's usage.
   * @param usage A (possibly partial) usage; `undefined` fields are skipped.
   * @returns this, for chaining.
   */
  add(usage: Partial<Usage> | undefined): this {
    if (usage === undefined) return this;
    this.count++;
    for (const field of USAGE_FIELDS) {
      const value = usage[field];
      if (typeof value === 'number') this.sums[field] = (this.sums[field] ?? 0) + value;
    }
    return this;
  }

  /**
   * Adds the usage of one round's aggregated response.
   * @param response A round's `ChatResponse`.
   * @returns this, for chaining.
   */
  addRoundResponse(response: Pick<ChatResponse, 'usage'>): this {
    return this.add(response.usage);
  }

  /** How many usages were added. */
  get size(): number {
    return this.count;
  }

  /** The sum so far, as a fresh `Usage`. */
  get total(): Usage {
    const total: Usage = {
      inputTokens: this.sums.inputTokens,
      outputTokens: this.sums.outputTokens,
      totalTokens: this.sums.totalTokens,
    };
    if (this.sums.cacheReadTokens !== undefined) total.cacheReadTokens = this.sums.cacheReadTokens;
    if (this.sums.cacheWriteTokens !== undefined)
      total.cacheWriteTokens = this.sums.cacheWriteTokens;
    if (this.sums.reasoningTokens !== undefined) total.reasoningTokens = this.sums.reasoningTokens;
    return total;
  }

  /**
   * Returns a copy of `response` whose usage is this total.
   * @param response The response to stamp.
   * @returns A new response object; `response` is not changed.
   */
  applyTo<T extends Pick<ChatResponse, 'usage'>>(response: T): T {
    return { ...response, usage: this.total };
  }
}
