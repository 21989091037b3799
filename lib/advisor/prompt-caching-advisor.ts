import { defer, tap, type Observable } from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES } from '../advisor-api/validate-advisor-identity.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { PromptCacheBreakpoint, PromptCacheOptions } from '../core/chat-options.js';
import type { ChatRequest } from '../core/chat-request.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';

/**
 * What one model call (one tool-loop round) read from and wrote to the prompt cache, as
 * the provider reported it (`undefined`: not reported).
 *
 * @example
 * ```ts
 * import type { PromptCacheRound } from 'rx-advisors';
 * const round: PromptCacheRound = { round: 2, inputTokens: 2100, cacheReadTokens: 2048, cacheWriteTokens: 52 };
 * ```
 */
export interface PromptCacheRound {
  /** The model call of this request, counting from 1. */
  round: number;
  inputTokens: number | undefined;
  cacheReadTokens: number | undefined;
  cacheWriteTokens: number | undefined;
}

/**
 * Options of {@link PromptCachingAdvisor}.
 * @example
 * ```ts
 * import { PromptCachingAdvisor, type PromptCachingAdvisorOptions } from 'rx-advisors';
 * const options: PromptCachingAdvisorOptions = { ttl: '1h', onRound: (r) => console.log(r) };
 * new PromptCachingAdvisor(options);
 * ```
 */
export interface PromptCachingAdvisorOptions {
  /** Where to place breakpoints; default `['system', 'tools', 'conversation']`. */
  breakpoints?: readonly PromptCacheBreakpoint[];
  /** How long entries live (Anthropic: `'5m'` or `'1h'`); default: the provider's (5 minutes). */
  ttl?: '5m' | '1h';
  /** A prompt cache key for providers that route by one (OpenAI); default none. */
  key?: string;
  /** Called after each round with what it read and wrote; a throw fails the call. */
  onRound?: (round: PromptCacheRound) => void;
  /** Default `Order.PROMPT_CACHING` (`LOWEST_PRECEDENCE - 3000`): inside the tool loop. */
  order?: number;
  /** Default `'prompt-caching'`. */
  name?: string;
}

const PROMPT_CACHING_DEFAULTS = {
  breakpoints: ['system', 'tools', 'conversation'] as readonly PromptCacheBreakpoint[],
  order: Order.PROMPT_CACHING,
  name: 'prompt-caching',
} as const;

const BREAKPOINTS: readonly unknown[] = ['system', 'tools', 'conversation'];

const PROMPT_CACHING_RULES: OptionRules<PromptCachingAdvisorOptions> = {
  ...ADVISOR_IDENTITY_RULES,
  breakpoints: Rules.custom(
    "an array of 'system', 'tools' and 'conversation'",
    (value) => Array.isArray(value) && value.every((item) => BREAKPOINTS.includes(item)),
  ),
  ttl: Rules.oneOf('5m', '1h'),
  key: Rules.nonEmptyString,
  onRound: Rules.func,
};

/** Where the rounds of one call are kept in `request.context`. */
const ROUNDS_KEY = 'rx-advisors.promptCache.rounds';

/**
 * Asks the provider to cache the prompt where it pays: after the system prompt, after the
 * tool definitions, and at the end of the conversation, a breakpoint that moves with each
 * tool-loop round so round 2 reads the prefix round 1 wrote (`ChatOptions.promptCache`:
 * Anthropic `cache_control` from `AnthropicChatModel` and the AI SDK bridge, OpenAI's
 * `prompt_cache_key` from `OpenAiChatModel` and the bridge). After
 * each round it reports the cache reads and writes the provider counted (`onRound`, and
 * {@link PromptCachingAdvisor.rounds} of the call's context). Chunks pass unchanged.
 *
 * @example
 * ```ts
 * import { ChatClient, PromptCachingAdvisor } from 'rx-advisors';
 *
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new PromptCachingAdvisor({ onRound: (r) => console.log(r.cacheReadTokens) }))
 *   .build();
 * ```
 */
export class PromptCachingAdvisor implements Advisor {
  /** @deprecated Use `Order.PROMPT_CACHING`, the one name of this default; removed in the next release. */
  static readonly DEFAULT_ORDER = Order.PROMPT_CACHING;
  readonly name: string;
  readonly order: number;
  private readonly cache: PromptCacheOptions;
  private readonly onRound: ((round: PromptCacheRound) => void) | undefined;

  /** @param options Breakpoints, TTL, key, the round callback, order and name. */
  constructor(options: PromptCachingAdvisorOptions = {}) {
    const resolved = withDefaults(
      PROMPT_CACHING_DEFAULTS,
      validateOptions(options, PROMPT_CACHING_RULES),
    );
    this.name = resolved.name;
    this.order = resolved.order;
    this.onRound = resolved.onRound;
    this.cache = { breakpoints: [...resolved.breakpoints] };
    if (resolved.ttl !== undefined) this.cache.ttl = resolved.ttl;
    if (resolved.key !== undefined) this.cache.key = resolved.key;
  }

  /**
   * The rounds reported so far in a call (its `request.context`).
   * @param context The call's context.
   * @returns The rounds, oldest first (empty before the first one ends).
   */
  static rounds(context: Map<string, unknown>): readonly PromptCacheRound[] {
    return (context.get(ROUNDS_KEY) as PromptCacheRound[] | undefined) ?? [];
  }

  /**
   * Runs one round with the cache options set, then reports it.
   * @param request The request.
   * @param chain The rest of the chain.
   * @returns The round's chunks, unchanged.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      const rounds = (request.context.get(ROUNDS_KEY) as PromptCacheRound[] | undefined) ?? [];
      request.context.set(ROUNDS_KEY, rounds);
      const report: PromptCacheRound = {
        round: rounds.length + 1,
        inputTokens: undefined,
        cacheReadTokens: undefined,
        cacheWriteTokens: undefined,
      };
      return chain.next(request.withOptions({ promptCache: this.cache })).pipe(
        tap({
          next: (chunk) => {
            if (chunk.type !== 'usage') return;
            report.inputTokens = add(report.inputTokens, chunk.usage.inputTokens);
            report.cacheReadTokens = add(report.cacheReadTokens, chunk.usage.cacheReadTokens);
            report.cacheWriteTokens = add(report.cacheWriteTokens, chunk.usage.cacheWriteTokens);
          },
          complete: () => {
            rounds.push(report);
            this.onRound?.(report);
          },
        }),
      );
    });
  }
}

function add(total: number | undefined, value: number | undefined): number | undefined {
  if (value === undefined) return total;
  return (total ?? 0) + value;
}
