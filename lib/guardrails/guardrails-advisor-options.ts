import { Rules, type OptionRules } from '../core/validate-options.js';
import type { GuardrailTrippedError } from '../errors/guardrail-tripped-error.js';
import { Order } from '../advisor-api/order.js';
import type { InputGuardrail, OutputGuardrail, ToolGuardrail } from './guardrail.js';
import type { PiiRedaction } from './pii/pii-redaction.js';

/**
 * Options of `GuardrailsAdvisor`.
 * @example
 * ```ts
 * import type { GuardrailsAdvisorOptions } from 'rx-advisors/guardrails';
 * import { wordGuardrail } from 'rx-advisors/guardrails';
 * const options: GuardrailsAdvisorOptions = {
 *   output: [wordGuardrail({ name: 'no-code-names', words: ['zebra'] })],
 *   replacement: 'The answer was withheld.',
 * };
 * ```
 */
export interface GuardrailsAdvisorOptions {
  /** Checked on the request, in parallel with the first model call. */
  input?: readonly InputGuardrail[];
  /** Checked on the answer text as it streams (sliding window, hold-back). */
  output?: readonly OutputGuardrail[];
  /**
   * Redacts the answer as it streams (before the output guardrails see it), e.g.
   * `piiRedaction()`; to redact tool results too, pass it in `tools` as well.
   */
  redact?: PiiRedaction;
  /** Checked on tool calls and results (tool-call interceptor seam). */
  tools?: readonly ToolGuardrail[];
  /**
   * What a trip does: `'end'` (default) ends the stream with a `guardrail-tripped` chunk,
   * the replacement and `finish` (`content-filter`); `'error'` fails it with the
   * `GuardrailTrippedError`.
   */
  onTrip?: 'end' | 'error';
  /** Whether a trip withdraws what the answer said before it (default `true`). */
  withdraw?: boolean;
  /**
   * Whether a trip sends the `guardrail-tripped` chunk (default `true`); `false` ends with
   * the replacement and `finish` only (what `SafeGuardAdvisor` has always sent).
   */
  tripChunk?: boolean;
  /** The text sent after a trip; default the guardrail's safe message; `''` for none. */
  replacement?: string | ((trip: GuardrailTrippedError) => string);
  /** Told of every trip (logs, metrics), before the stream ends. */
  onTripped?: (trip: GuardrailTrippedError) => void;
  /** Default `Order.SAFE_GUARD`: outside memory and the tool loop. */
  order?: number;
  /** Default `'guardrails'`. */
  name?: string;
}

/**
 * {@link GuardrailsAdvisorOptions} with the defaults filled in.
 * @internal
 */
export type GuardrailsAdvisorSettings = GuardrailsAdvisorOptions &
  Required<
    Pick<
      GuardrailsAdvisorOptions,
      'input' | 'output' | 'tools' | 'onTrip' | 'withdraw' | 'tripChunk' | 'order' | 'name'
    >
  >;

/**
 * The defaults of {@link GuardrailsAdvisorOptions}.
 * @internal
 */
export const GUARDRAILS_ADVISOR_DEFAULTS: GuardrailsAdvisorSettings = {
  input: [],
  output: [],
  tools: [],
  onTrip: 'end',
  withdraw: true,
  tripChunk: true,
  order: Order.SAFE_GUARD,
  name: 'guardrails',
};

const isArrayOf =
  (key: string) =>
  (value: unknown): boolean =>
    Array.isArray(value) &&
    value.every(
      (item) =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as Record<string, unknown>)['name'] === 'string' &&
        (key === '' || typeof (item as Record<string, unknown>)[key] === 'function'),
    );

const isHoldBack = (value: unknown): boolean =>
  isArrayOf('checkOutput')(value) &&
  (value as OutputGuardrail[]).every(
    (g) => Number.isInteger(g.holdBack) && g.holdBack >= 0 && (g.window ?? 0) >= 0,
  );

/**
 * The rules of {@link GuardrailsAdvisorOptions}.
 * @internal
 */
export const GUARDRAILS_ADVISOR_RULES: OptionRules<GuardrailsAdvisorOptions> = {
  input: Rules.custom(
    'an array of input guardrails ({ name, checkInput })',
    isArrayOf('checkInput'),
  ),
  output: Rules.custom(
    'an array of output guardrails ({ name, holdBack: integer ≥ 0, checkOutput })',
    isHoldBack,
  ),
  tools: Rules.custom('an array of tool guardrails ({ name, … })', isArrayOf('')),
  redact: Rules.custom(
    'a PII redaction (piiRedaction())',
    (value) => typeof (value as Partial<PiiRedaction> | null)?.scanner === 'function',
  ),
  onTrip: Rules.oneOf('end', 'error'),
  withdraw: Rules.boolean,
  tripChunk: Rules.boolean,
  replacement: Rules.custom(
    'a string or a function',
    (value) => typeof value === 'string' || typeof value === 'function',
  ),
  onTripped: Rules.func,
  order: Rules.integer(Order.HIGHEST_PRECEDENCE, Order.LOWEST_PRECEDENCE),
  name: Rules.nonEmptyString,
};
