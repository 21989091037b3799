import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.EvaluationError');

/**
 * An `EvaluationAdvisor` with `onExhausted: 'error'` ran out of attempts: the judge
 * rejected every answer.
 *
 * @example
 * ```ts
 * import { EvaluationError } from 'rx-advisors';
 *
 * client.prompt('Explain RxJS').call().content().subscribe({
 *   error: (error) => {
 *     if (EvaluationError.isInstance(error)) console.log(error.attempts, error.feedback);
 *   },
 * });
 * ```
 */
export class EvaluationError extends RxAdvisorsError {
  /** How many answers were judged. */
  readonly attempts: number;
  /** The judge's feedback on each answer, in order (`''` when it gave none). */
  readonly feedback: readonly string[];
  /** The last answer's text. */
  readonly lastText: string;
  /** The last score, when the judge gives scores. */
  readonly lastScore: number | undefined;

  /** @param options Attempts, feedback, last text and score. */
  constructor(options: {
    attempts: number;
    feedback: readonly string[];
    lastText: string;
    lastScore?: number | undefined;
  }) {
    const last = options.feedback[options.feedback.length - 1];
    super(
      `The judge rejected all ${options.attempts} answer(s)` +
        `${options.lastScore === undefined ? '' : ` (last score ${options.lastScore})`}` +
        `${last ? `; last feedback: ${last}` : ''}. ` +
        `Raise maxAttempts, relax the judge, or use onExhausted: 'return-last'.`,
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.attempts = options.attempts;
    this.feedback = options.feedback;
    this.lastText = options.lastText;
    this.lastScore = options.lastScore;
  }

  /**
   * Whether `error` is an {@link EvaluationError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is EvaluationError {
    return hasErrorMarker(error, MARKER);
  }
}
