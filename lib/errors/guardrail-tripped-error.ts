import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.GuardrailTrippedError');

/**
 * Where a guardrail tripped: on the request (`input`), on the answer (`output`) or on a
 * tool call or its result (`tool`).
 * @example
 * ```ts
 * import type { GuardrailStage } from 'rx-advisors';
 * const stage: GuardrailStage = 'output';
 * ```
 */
export type GuardrailStage = 'input' | 'output' | 'tool';

/**
 * A guardrail stopped the call. With the `GuardrailsAdvisor` option `onTrip: 'error'` the
 * stream fails with it; otherwise the advisor turns it into a `guardrail-tripped` chunk.
 * `safeMessage` is meant for users; `reason` (the guardrail's own words, possibly naming
 * what it found) and the `message` stay on the server.
 *
 * @example
 * ```ts
 * import { GuardrailTrippedError } from 'rx-advisors';
 *
 * client.prompt('hi').stream().content().subscribe({
 *   error: (e) => GuardrailTrippedError.isInstance(e) && console.log(e.guardrail, e.safeMessage),
 * });
 * ```
 */
export class GuardrailTrippedError extends RxAdvisorsError {
  /** The name of the guardrail that tripped. */
  readonly guardrail: string;
  /** Where it tripped. */
  readonly stage: GuardrailStage;
  /** A message safe to show the user. */
  readonly safeMessage: string;
  /** Why it tripped, in the guardrail's words (server side only); may be empty. */
  readonly reason: string;

  /** @param options The guardrail, the stage, the safe message, the reason and its cause. */
  constructor(options: {
    guardrail: string;
    stage: GuardrailStage;
    safeMessage: string;
    reason?: string;
    cause?: unknown;
  }) {
    const reason = options.reason ?? '';
    super(
      `Guardrail ${JSON.stringify(options.guardrail)} tripped on the ${options.stage}` +
        `${reason === '' ? '' : `: ${reason}`}. The call was stopped; ` +
        'catch GuardrailTrippedError, or let GuardrailsAdvisor end the stream with a guardrail-tripped chunk.',
      { cause: options.cause },
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.guardrail = options.guardrail;
    this.stage = options.stage;
    this.safeMessage = options.safeMessage;
    this.reason = reason;
  }

  /**
   * Whether `error` is a {@link GuardrailTrippedError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is GuardrailTrippedError {
    return hasErrorMarker(error, MARKER);
  }
}
