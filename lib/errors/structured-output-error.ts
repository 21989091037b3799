import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.StructuredOutputError');

/**
 * One validation failure of one attempt.
 *
 * @example
 * ```ts
 * import type { StructuredOutputIssue } from 'rx-advisors';
 * const issue: StructuredOutputIssue = { attempt: 1, path: '/age', message: 'must be number' };
 * ```
 */
export interface StructuredOutputIssue {
  /** The attempt (model call) it belongs to, counting from 1. */
  readonly attempt: number;
  /** A JSON Pointer into the answer; `''` for the answer as a whole. */
  readonly path: string;
  /** What is wrong. */
  readonly message: string;
}

/**
 * The fields of a {@link StructuredOutputError}.
 *
 * @example
 * ```ts
 * import { StructuredOutputError, type StructuredOutputErrorOptions } from 'rx-advisors';
 * const options: StructuredOutputErrorOptions = { attempts: 1, errors: [{ attempt: 1, path: '', message: 'not JSON' }], lastText: 'hi' };
 * new StructuredOutputError(options);
 * ```
 */
export interface StructuredOutputErrorOptions {
  /** How many answers were tried. */
  attempts: number;
  /** Every attempt's validation failures (the first `maxIssues` of each attempt). */
  errors: readonly StructuredOutputIssue[];
  /** The text of the last answer. */
  lastText: string;
  /** How many failures there were over all attempts, kept or not; default `errors.length`. */
  errorCount?: number;
  /** How many failures the last attempt had, kept or not; default: those kept in `errors`. */
  lastAttemptErrorCount?: number;
  /**
   * Why the retry after the last answer never answered (its model call failed): given,
   * the error says both that and why the last answer was rejected.
   */
  cause?: unknown;
}

/**
 * No answer matched the output schema within `maxAttempts` model calls.
 *
 * @example
 * ```ts partial
 * import { StructuredOutputError } from 'rx-advisors';
 *
 * client.prompt('A person').call().entity(person, { validate: true }).subscribe({
 *   error: (error) => {
 *     if (StructuredOutputError.isInstance(error)) console.log(error.attempts, error.errors, error.lastText);
 *   },
 * });
 * ```
 */
export class StructuredOutputError extends RxAdvisorsError {
  /** How many answers were tried. */
  readonly attempts: number;
  /** Every attempt's validation failures, in order (the first `maxIssues` of each attempt). */
  readonly errors: readonly StructuredOutputIssue[];
  /** The text of the last answer. */
  readonly lastText: string;
  /** How many failures there were over all attempts, including those not kept in `errors`. */
  readonly errorCount: number;

  /** @param options Attempts, errors and the last answer's text. */
  constructor(options: StructuredOutputErrorOptions) {
    const last = options.errors.filter((issue) => issue.attempt === options.attempts);
    const lastCount = Math.max(options.lastAttemptErrorCount ?? 0, last.length);
    const summary = last
      .slice(0, 3)
      .map((issue) => `${issue.path || '(answer)'} ${issue.message}`)
      .join('; ');
    const rejected = `${summary}${lastCount > 3 ? ` (and ${lastCount - 3} more)` : ''}`;
    super(
      options.cause === undefined
        ? `No answer matched the output schema after ${options.attempts} attempt(s); the last one failed with: ` +
            `${rejected}. Raise maxAttempts, simplify the schema, or use onExhausted: 'return-last'.`
        : `Attempt ${options.attempts + 1} (a retry) failed before it answered: ${causeText(options.cause)}. ` +
            `It was a retry because attempt ${options.attempts}'s answer did not match the output schema: ${rejected}.`,
      options.cause === undefined ? {} : { cause: options.cause },
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.attempts = options.attempts;
    this.errors = options.errors;
    this.lastText = options.lastText;
    this.errorCount = Math.max(options.errorCount ?? 0, options.errors.length);
  }

  /**
   * Whether `error` is a {@link StructuredOutputError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is StructuredOutputError {
    return hasErrorMarker(error, MARKER);
  }
}

function causeText(cause: unknown): string {
  const text = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  return text.replace(/\.$/, '');
}
