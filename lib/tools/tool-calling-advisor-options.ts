import { Order } from '../advisor/order.js';
import type { ChatResponse } from '../core/chat-response.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { ToolErrorPolicy } from './run-tool-call.js';
import type { ToolLoopState } from './tool-loop-state.js';

/**
 * What happens to text a model streams in a round that ends with tool calls (a preamble
 * such as "Let me look that up."): `stream` sends it on as it arrives (the default);
 * `drop` holds each round's text until the round ends and sends only the final round's,
 * which delays the answer text to the end of its round.
 * @example
 * ```ts
 * import { ToolCallingAdvisor } from 'rx-advisors';
 * const loop = new ToolCallingAdvisor({ preamble: 'drop' });
 * ```
 */
export type PreamblePolicy = 'stream' | 'drop';

/**
 * Decides whether a round's response leads to running its tools and another round.
 * @example
 * ```ts
 * import type { ToolEligibility } from 'rx-advisors';
 * const onlyWhenAsked: ToolEligibility = (response) => response.finishReason === 'tool-calls';
 * ```
 */
export type ToolEligibility = (response: ChatResponse, state: ToolLoopState) => boolean;

/**
 * Options of `ToolCallingAdvisor`; every one has a default.
 * @example
 * ```ts
 * import { ToolCallingAdvisor } from 'rx-advisors';
 * const loop = new ToolCallingAdvisor({
 *   maxRounds: 5,
 *   concurrency: 4,
 *   toolCallLimits: { search: 3 },
 *   toolTimeout: 10_000,
 *   emitToolEvents: true,
 * });
 * ```
 */
export interface ToolCallingAdvisorOptions {
  /** Position in the chain; default `Order.TOOL_CALLING` (`HIGHEST_PRECEDENCE + 300`). */
  order?: number;
  /** Model calls allowed per request; default 20. Past it: `ToolLoopLimitError`. */
  maxRounds?: number;
  /** Calls allowed per tool name and request, e.g. `{ search: 3 }`; default unlimited. */
  toolCallLimits?: Readonly<Record<string, number>>;
  /** How many tools of one round run at once; default 8. Results keep the call order. */
  concurrency?: number;
  /** Whether a round's tools run; default: the response has tool calls. */
  eligibility?: ToolEligibility;
  /** Send every earlier round to the model (default `true`); `false`: system + tool results only. */
  conversationHistory?: boolean;
  /** Also emit `round-start`/`round-end`, `tool-call` and `tool-result` chunks outbound; default `false`. */
  emitToolEvents?: boolean;
  /** `report` (default): a failed tool becomes an `isError` result; `throw`: the stream fails. */
  onToolError?: ToolErrorPolicy;
  /** Milliseconds (RxJS time) a tool without its own `timeout` may run; default unlimited. */
  toolTimeout?: number;
  /** Text streamed before a tool call in an intermediate round; default `stream`. */
  preamble?: PreamblePolicy;
}

/** The options with defaults applied. @internal */
export interface ResolvedToolCallingAdvisorOptions {
  readonly order: number;
  readonly maxRounds: number;
  readonly toolCallLimits: Readonly<Record<string, number>>;
  readonly concurrency: number;
  readonly eligibility: ToolEligibility | undefined;
  readonly conversationHistory: boolean;
  readonly emitToolEvents: boolean;
  readonly onToolError: ToolErrorPolicy;
  readonly toolTimeout: number | undefined;
  readonly preamble: PreamblePolicy;
}

/**
 * Applies defaults and rejects bad values with an `InvalidOptionsError`.
 * @internal
 */
export function resolveToolCallingAdvisorOptions(
  options: ToolCallingAdvisorOptions,
): ResolvedToolCallingAdvisorOptions {
  const {
    order = Order.TOOL_CALLING,
    maxRounds = 20,
    toolCallLimits = {},
    concurrency = 8,
    eligibility,
    conversationHistory = true,
    emitToolEvents = false,
    onToolError = 'report',
    toolTimeout,
    preamble = 'stream',
  } = options;
  check('order', order, typeof order === 'number' && !Number.isNaN(order), 'a number (see Order)');
  check(
    'maxRounds',
    maxRounds,
    Number.isInteger(maxRounds) && maxRounds >= 1,
    'an integer of at least 1',
  );
  check('concurrency', concurrency, concurrency >= 1, 'a number of at least 1 (Infinity allowed)');
  for (const [name, limit] of Object.entries(toolCallLimits)) {
    check(
      `toolCallLimits.${name}`,
      limit,
      Number.isInteger(limit) && limit >= 0,
      'an integer of at least 0',
    );
  }
  check(
    'eligibility',
    eligibility,
    eligibility === undefined || typeof eligibility === 'function',
    'a function (response, state) => boolean',
  );
  check(
    'onToolError',
    onToolError,
    onToolError === 'report' || onToolError === 'throw',
    '"report" or "throw"',
  );
  check(
    'toolTimeout',
    toolTimeout,
    toolTimeout === undefined || (typeof toolTimeout === 'number' && toolTimeout > 0),
    'a positive number of milliseconds',
  );
  check('preamble', preamble, preamble === 'stream' || preamble === 'drop', '"stream" or "drop"');
  return {
    order,
    maxRounds,
    toolCallLimits,
    concurrency,
    eligibility,
    conversationHistory: conversationHistory !== false,
    emitToolEvents: emitToolEvents === true,
    onToolError,
    toolTimeout,
    preamble,
  };
}

function check(option: string, value: unknown, ok: boolean, expected: string): void {
  if (!ok) throw new InvalidOptionsError({ option, value, expected });
}
