import type { Observable } from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES, narrowOrder } from '../advisor-api/validate-advisor-identity.js';
import { GuardrailsAdvisor } from '../guardrails/guardrails-advisor.js';
import { wordGuardrail, type MessageScope } from '../guardrails/word-guardrail.js';

/**
 * Which messages of a request {@link SafeGuardAdvisor} checks: the last user message,
 * every user message, or every message (system, user, assistant and tool texts).
 *
 * @example
 * ```ts
 * import { SafeGuardAdvisor, type SafeGuardScope } from 'rx-advisors';
 * const scope: SafeGuardScope = 'all-user';
 * new SafeGuardAdvisor({ sensitiveWords: ['password'], scope });
 * ```
 */
export type SafeGuardScope = MessageScope;

/**
 * Options of {@link SafeGuardAdvisor}.
 *
 * @example
 * ```ts
 * import { SafeGuardAdvisor, type SafeGuardAdvisorOptions } from 'rx-advisors';
 * const options: SafeGuardAdvisorOptions = { sensitiveWords: ['password'], scope: 'all-user' };
 * new SafeGuardAdvisor(options);
 * ```
 */
export interface SafeGuardAdvisorOptions {
  /**
   * Words or phrases that stop the call, matched as whole words after normalization
   * (case, compatibility forms, invisible characters, combining marks, whitespace runs;
   * see docs/security.md). Any number: matching is linear in the message length.
   */
  sensitiveWords: readonly string[];
  /** The polite refusal sent instead of a model answer. */
  failureResponse?: string;
  /**
   * Which messages of the request are checked. Default `'all-user'`: every user message
   * the caller passed, because history sent by a browser is not trusted (a forbidden word
   * in an earlier "user" message would otherwise reach the model). `'last-user'` checks
   * only the newest user message; `'all-messages'` also system, assistant and tool texts.
   */
  scope?: SafeGuardScope;
  /** Whether combining marks are ignored (`café` matches `cafe`). Default `true`. */
  stripMarks?: boolean;
  /** Default `Order.SAFE_GUARD` (`HIGHEST_PRECEDENCE + 100`): before memory and the tool loop. */
  order?: number;
  /** Default `'safe-guard'`. */
  name?: string;
}

const DEFAULT_FAILURE =
  'Sorry, I cannot help with that request because it touches a topic I am not allowed to discuss. ' +
  'Could you rephrase it or ask something else?';

/** The defaults of {@link SafeGuardAdvisorOptions}. */
const SAFE_GUARD_DEFAULTS: Readonly<Required<Omit<SafeGuardAdvisorOptions, 'sensitiveWords'>>> = {
  failureResponse: DEFAULT_FAILURE,
  scope: 'all-user',
  stripMarks: true,
  order: Order.SAFE_GUARD,
  name: 'safe-guard',
};

const isString = (value: unknown): value is string => typeof value === 'string';

const SAFE_GUARD_RULES: OptionRules<SafeGuardAdvisorOptions> = {
  sensitiveWords: Rules.required(
    Rules.custom(
      'an array of non-empty strings',
      (value) =>
        Array.isArray(value) && value.every((word) => isString(word) && word.trim() !== ''),
    ),
  ),
  failureResponse: Rules.custom('a string', isString),
  scope: Rules.oneOf('last-user', 'all-user', 'all-messages'),
  stripMarks: Rules.boolean,
  ...ADVISOR_IDENTITY_RULES,
  order: narrowOrder(Rules.integer(Order.HIGHEST_PRECEDENCE, Order.LOWEST_PRECEDENCE)),
};

/**
 * Stops a call whose user message contains a sensitive word: the model is not called,
 * and the stream is a polite refusal with finish reason `content-filter`. Words match
 * whole, after normalization (so `ＰＡＳＳ\u200Bword` matches `password`), through an
 * Aho–Corasick automaton built once: the cost is linear in the text checked, whatever
 * the number of words. Every user message of the request is checked by default (see
 * `scope`); it sits before the memory advisor, so history loaded from memory is not.
 *
 * Built on the guardrails (docs/guardrails.md): a `GuardrailsAdvisor` with one input
 * `wordGuardrail`, which decides synchronously, before the model is subscribed; the
 * refusal is its replacement text, without a `guardrail-tripped` chunk.
 *
 * @example
 * ```ts
 * import { ChatClient, SafeGuardAdvisor } from 'rx-advisors';
 *
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new SafeGuardAdvisor({ sensitiveWords: ['password'] }))
 *   .build();
 * client.prompt('What is the admin password?').call().content(); // the refusal, no model call
 * ```
 */
export class SafeGuardAdvisor implements Advisor {
  readonly name: string;
  readonly order: number;
  private readonly guardrails: GuardrailsAdvisor | undefined;

  /**
   * @param options The sensitive words, refusal text, scope, normalization, order and name.
   * @throws InvalidOptionsError When an option is invalid or a word is empty once normalized.
   */
  constructor(options: SafeGuardAdvisorOptions) {
    const settings = withDefaults(SAFE_GUARD_DEFAULTS, validateOptions(options, SAFE_GUARD_RULES));
    this.name = settings.name;
    this.order = settings.order;
    const words = renameWordErrors(() =>
      wordGuardrail({
        name: settings.name,
        words: settings.sensitiveWords,
        scope: settings.scope,
        stripMarks: settings.stripMarks,
        message: settings.failureResponse,
      }),
    );
    this.guardrails =
      settings.sensitiveWords.length === 0
        ? undefined
        : new GuardrailsAdvisor({
            input: [words],
            tripChunk: false,
            withdraw: false,
            name: settings.name,
            order: settings.order,
          });
  }

  /**
   * Refuses without calling the model when a checked message is sensitive; otherwise
   * passes the call on unchanged.
   * @param request The request.
   * @param chain The rest of the chain.
   * @returns The refusal chunks, or the downstream chunks.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return this.guardrails === undefined
      ? chain.next(request)
      : this.guardrails.advise(request, chain);
  }
}

/** The word guardrail names its option `words`; this advisor's users know `sensitiveWords`. */
function renameWordErrors<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (InvalidOptionsError.isInstance(error) && error.option.startsWith('words[')) {
      throw new InvalidOptionsError({
        option: `sensitiveWords${error.option.slice('words'.length)}`,
        value: error.value,
        expected: 'a word that is not empty once invisible characters and marks are removed',
      });
    }
    throw error;
  }
}
