// The template for a simple advisor: copy this file (docs/concepts.md links here). It has
// everything a built-in advisor has: an options interface, one readonly defaults constant,
// rules checked by validateOptions, a default order from `Order`, and an advise() that
// maps the request and passes the chunks on.
import type { Observable } from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES } from '../advisor-api/validate-advisor-identity.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';

/**
 * Options of {@link ReReadingAdvisor}.
 * @example
 * ```ts
 * import { ReReadingAdvisor, type ReReadingAdvisorOptions } from 'rx-advisors';
 * const options: ReReadingAdvisorOptions = { template: '{input}\nOnce more: {input}' };
 * new ReReadingAdvisor(options);
 * ```
 */
export interface ReReadingAdvisorOptions {
  /** The new user text; every `{input}` is the original. Default: the RE2 paper's wording. */
  template?: string;
  /** Default `Order.RE_READING` (`HIGHEST_PRECEDENCE + 230`). */
  order?: number;
  /** Default `'re-reading'`. */
  name?: string;
}

const RE_READING_DEFAULTS = {
  template: '{input}\nRead the question again: {input}',
  order: Order.RE_READING,
  name: 're-reading',
} as const;

const RE_READING_RULES: OptionRules<ReReadingAdvisorOptions> = {
  ...ADVISOR_IDENTITY_RULES,
  template: Rules.custom(
    'a string containing {input}',
    (value) => typeof value === 'string' && value.includes('{input}'),
  ),
};

/**
 * Re-reading (RE2, Xu et al. 2023): repeats the user's question in the prompt ("Read the
 * question again: …"), which improves reasoning of many models at the cost of the
 * question's tokens once more. It rewrites the last user message only; history, the model's
 * chunks and a request without a user message pass unchanged.
 *
 * @example
 * ```ts
 * import { ChatClient, ReReadingAdvisor } from 'rx-advisors';
 *
 * const client = ChatClient.builder(model).defaultAdvisors(new ReReadingAdvisor()).build();
 * client.prompt('How many r are in strawberry?').call().content().subscribe(console.log);
 * ```
 */
export class ReReadingAdvisor implements Advisor {
  /** @deprecated Use `Order.RE_READING`, the one name of this default; removed in the next release. */
  static readonly DEFAULT_ORDER = Order.RE_READING;
  readonly name: string;
  readonly order: number;
  private readonly template: string;

  /** @param options The template, order and name. */
  constructor(options: ReReadingAdvisorOptions = {}) {
    const resolved = withDefaults(RE_READING_DEFAULTS, validateOptions(options, RE_READING_RULES));
    this.name = resolved.name;
    this.order = resolved.order;
    this.template = resolved.template;
  }

  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    // The chain calls advise() once per subscription inside its own defer: no state here.
    const last = request.messages.map((m) => m.role).lastIndexOf('user');
    if (last === -1) return chain.next(request);
    const messages = request.messages.map((message, i) =>
      i === last && message.role === 'user'
        ? {
            role: 'user' as const,
            content: this.template.replaceAll('{input}', () => message.content),
          }
        : message,
    );
    return chain.next(request.withMessages(messages));
  }
}
