import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.EntityParseError');

/**
 * One reason an answer is not the requested entity.
 *
 * @example
 * ```ts
 * import type { EntityParseIssue } from 'rx-advisors';
 * const issue: EntityParseIssue = { path: '/name', message: 'must be string' };
 * ```
 */
export interface EntityParseIssue {
  /** A JSON Pointer into the answer; `''` for the answer as a whole. */
  readonly path: string;
  /** What is wrong. */
  readonly message: string;
}

/**
 * `entity(schema)` could not turn the answer into the entity: no JSON, malformed JSON,
 * or JSON that does not match the schema. (`entity(schema, { validate: true })` retries
 * instead and fails with a `StructuredOutputError`.)
 *
 * @example
 * ```ts partial
 * import { EntityParseError } from 'rx-advisors';
 *
 * client.prompt('A person as JSON').call().entity(person).subscribe({
 *   error: (error) => {
 *     if (EntityParseError.isInstance(error)) console.log(error.errors, error.text);
 *   },
 * });
 * ```
 */
export class EntityParseError extends RxAdvisorsError {
  /** Why the answer was rejected. */
  readonly errors: readonly EntityParseIssue[];
  /** The answer text. */
  readonly text: string;
  /** How many issues were found; `errors` keeps only the first `maxIssues` of them. */
  readonly errorCount: number;

  /** @param options The issues kept, how many there were (default: as many as kept) and the answer text. */
  constructor(options: { errors: readonly EntityParseIssue[]; text: string; errorCount?: number }) {
    const errorCount = Math.max(options.errorCount ?? 0, options.errors.length);
    const summary = options.errors
      .slice(0, 3)
      .map((issue) => `${issue.path || '(answer)'} ${issue.message}`)
      .join('; ');
    super(
      `The answer is not a valid entity: ${summary}${errorCount > 3 ? ` (and ${errorCount - 3} more)` : ''}. ` +
        `Ask for JSON in the prompt, or use entity(schema, { validate: true }) to retry with the errors.`,
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.errors = options.errors;
    this.text = options.text;
    this.errorCount = errorCount;
  }

  /**
   * Whether `error` is an {@link EntityParseError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is EntityParseError {
    return hasErrorMarker(error, MARKER);
  }
}
