import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.ToolArgumentsError');

/**
 * The fields of a {@link ToolArgumentsError}.
 * @example
 * ```ts
 * import { ToolArgumentsError } from 'rx-advisors';
 * new ToolArgumentsError({ toolName: 'getTime', arguments: '{', reason: 'malformed-json', issues: ['Unexpected end'] });
 * ```
 */
export interface ToolArgumentsErrorOptions {
  /** The tool whose arguments were rejected. */
  toolName: string;
  /** The arguments text exactly as the model sent it. */
  arguments: string;
  /** `malformed-json`: not JSON at all; `invalid`: JSON that violates the tool's schema. */
  reason: 'malformed-json' | 'invalid';
  /** One readable line per problem (`/city: must be string`). */
  issues: readonly string[];
  /** The parser's or validator's own error, when there is one. */
  cause?: unknown;
}

/**
 * The arguments a model sent for a tool are not valid JSON, or violate the tool's schema.
 * `execute` never runs on such arguments; by default the tool loop sends this error's
 * message back to the model as an error tool result, so it can correct itself.
 *
 * @example
 * ```ts
 * import { ToolArgumentsError, tool } from 'rx-advisors';
 *
 * const getTime = tool({
 *   name: 'getTime',
 *   description: 'The current time in a city',
 *   parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 *   execute: ({ city }) => `12:00 in ${city}`,
 * });
 * try {
 *   getTime.parseArguments('{"city": 42}');
 * } catch (error) {
 *   if (ToolArgumentsError.isInstance(error)) console.log(error.issues); // ['/city: must be string']
 * }
 * ```
 */
export class ToolArgumentsError extends RxAdvisorsError {
  /** The tool whose arguments were rejected. */
  readonly toolName: string;
  /** The raw arguments text. */
  readonly arguments: string;
  /** Why they were rejected. */
  readonly reason: 'malformed-json' | 'invalid';
  /** One line per problem. */
  readonly issues: readonly string[];

  /** @param options Tool name, raw arguments, reason and issues. */
  constructor(options: ToolArgumentsErrorOptions) {
    const what =
      options.reason === 'malformed-json'
        ? 'are not valid JSON'
        : 'do not match its parameters schema';
    super(
      `The arguments for tool "${options.toolName}" ${what}: ${options.issues.join('; ')}. ` +
        `Call the tool again with a JSON object that matches its parameters schema.`,
      { cause: options.cause },
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.toolName = options.toolName;
    this.arguments = options.arguments;
    this.reason = options.reason;
    this.issues = options.issues;
  }

  /**
   * Whether `error` is a {@link ToolArgumentsError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ToolArgumentsError {
    return hasErrorMarker(error, MARKER);
  }
}
