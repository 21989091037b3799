import { defer, type Observable } from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES } from '../advisor-api/validate-advisor-identity.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { Message, ToolMessage } from '../core/message.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/**
 * Options of {@link ContextEditingAdvisor}.
 * @example
 * ```ts
 * import type { ContextEditingAdvisorOptions } from 'rx-advisors';
 * const options: ContextEditingAdvisorOptions = { keepRounds: 2 };
 * ```
 */
export interface ContextEditingAdvisorOptions {
  /** How many of the latest tool rounds keep their results whole; default 3. */
  keepRounds?: number;
  /** The text an older result is replaced by; default names the tool and the size left out. */
  placeholder?: (result: ToolMessage) => string;
  /** Position in the chain; default `Order.CONTEXT_EDITING` (inside the tool loop). */
  order?: number;
  /** The advisor's name; default `'ContextEditingAdvisor'`. */
  name?: string;
}

const CONTEXT_EDITING_DEFAULTS = {
  keepRounds: 3,
  placeholder: defaultPlaceholder,
  order: Order.CONTEXT_EDITING,
  name: 'ContextEditingAdvisor',
} as const;

const CONTEXT_EDITING_RULES = {
  ...ADVISOR_IDENTITY_RULES,
  keepRounds: Rules.integer(0),
  placeholder: Rules.func,
} as const satisfies OptionRules<ContextEditingAdvisorOptions>;

function defaultPlaceholder(result: ToolMessage): string {
  return `[Result of ${result.name} left out to save context (${result.content.length} characters). Call the tool again if you need it.]`;
}

/**
 * An advisor inside the tool loop that trims old tool results: every round's request keeps
 * the results of the last `keepRounds` tool rounds whole and replaces older ones by a short
 * placeholder (only when the placeholder is shorter), so a long loop does not resend every
 * result every round. The calls themselves stay, each with a result, so providers accept the
 * history; what the loop keeps for memory and the transcript is not changed.
 *
 * ```
 * round 5 sends:  user, a1(call) t1, a2(call) t2, a3(call) t3, a4(call) t4    keepRounds 2
 * model gets:     user, a1(call) [left out], a2(call) [left out], a3 t3, a4 t4
 * ```
 *
 * @example
 * ```ts partial
 * import { ChatClient, ContextEditingAdvisor } from 'rx-advisors';
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new ContextEditingAdvisor({ keepRounds: 3 }))
 *   .build();
 * ```
 */
export class ContextEditingAdvisor implements Advisor {
  readonly name: string;
  readonly order: number;
  /** How many of the latest tool rounds keep their results whole. */
  readonly keepRounds: number;
  private readonly placeholder: (result: ToolMessage) => string;

  /** @param options `keepRounds`, `placeholder`, `order`, `name`; all optional. */
  constructor(options: ContextEditingAdvisorOptions = {}) {
    const resolved = withDefaults(
      CONTEXT_EDITING_DEFAULTS,
      validateOptions(options, CONTEXT_EDITING_RULES),
    );
    if (resolved.order <= Order.TOOL_CALLING) {
      throw new InvalidOptionsError({
        option: 'order',
        value: resolved.order,
        expected:
          'an order after Order.TOOL_CALLING (the advisor edits each round inside the loop)',
      });
    }
    this.name = resolved.name;
    this.order = resolved.order;
    this.keepRounds = resolved.keepRounds;
    this.placeholder = resolved.placeholder;
  }

  /**
   * Passes the round on with older tool results replaced.
   * @param request The round's request.
   * @param chain The rest of the chain.
   * @returns The round's chunks, unchanged.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      const edited = this.edit(request.messages);
      return chain.next(edited === request.messages ? request : request.withMessages(edited));
    });
  }

  /** The messages with results of rounds older than the last `keepRounds` replaced; the same array when nothing changed. */
  private edit(messages: readonly Message[]): readonly Message[] {
    // Results from where the latest `keepRounds` tool rounds begin stay whole.
    let keepFrom = messages.length;
    let rounds = 0;
    for (let i = messages.length - 1; i >= 0 && rounds < this.keepRounds; i--) {
      const message = messages[i];
      if (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0) {
        rounds++;
        keepFrom = i;
      }
    }
    if (rounds < this.keepRounds) return messages;
    let edited: Message[] | undefined;
    for (let i = 0; i < keepFrom; i++) {
      const message = messages[i];
      if (message.role !== 'tool') continue;
      const text = this.placeholder(message);
      if (text.length >= message.content.length) continue;
      edited ??= messages.slice();
      edited[i] = { ...message, content: text };
    }
    return edited ?? messages;
  }
}
