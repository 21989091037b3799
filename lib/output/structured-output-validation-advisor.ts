import { catchError, defer, type Observable } from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES, narrowOrder } from '../advisor-api/validate-advisor-identity.js';
import { previousAttemptMessages } from '../advisor-api/previous-attempt-messages.js';
import {
  recursiveAdvisor,
  type RecursionState,
  type RecursionStep,
} from '../advisor-api/recursive-advisor.js';
import { ToolLoopTranscript, type TranscriptMark } from '../core/tool-loop-transcript.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { Message } from '../core/message.js';
import type { JsonSchema } from '../core/tool-definition.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import {
  StructuredOutputError,
  type StructuredOutputIssue,
} from '../errors/structured-output-error.js';
import { SCHEMA_LIMIT_DEFAULTS, SCHEMA_LIMIT_RULES } from '../schema/schema-limits.js';
import { withoutMetaSchema } from '../schema/schema-validator.js';
import { compileOutputSchema, type CompiledOutputSchema } from './compile-output-schema.js';
import { formatInstructions } from './format-instructions.js';
import type { OutputSchema } from './output-schema.js';
import { parseAnswer } from './parse-answer.js';
import { validationFeedback } from './validation-feedback.js';

/**
 * Options of {@link StructuredOutputValidationAdvisor}.
 *
 * @example
 * ```ts
 * import { StructuredOutputValidationAdvisor, type StructuredOutputValidationAdvisorOptions } from 'rx-advisors';
 * const options: StructuredOutputValidationAdvisorOptions = { outputSchema: { type: 'object' }, maxAttempts: 2, onExhausted: 'return-last' };
 * new StructuredOutputValidationAdvisor(options);
 * ```
 */
export interface StructuredOutputValidationAdvisorOptions<T = unknown> {
  /** The schema the answer must match: a JSON Schema (ajv) or a zod v4 schema. */
  outputSchema: OutputSchema<T>;
  /** Model calls in all, the first one included; default 3. */
  maxAttempts?: number;
  /**
   * Ask for the provider's native structured output (`ChatOptions.responseFormat`
   * `json-schema`, strict); default `false`.
   */
  native?: boolean;
  /**
   * Add format instructions carrying the schema as a system message: `true`, `false`, or a
   * function of the schema returning the text. Default: `true` unless `native`.
   */
  instructions?: boolean | ((schema: JsonSchema) => string);
  /** When no answer passes: fail with `StructuredOutputError` (default) or return the last answer. */
  onExhausted?: 'error' | 'return-last';
  /** The schema name sent with native structured output; default `'response'`. */
  schemaName?: string;
  /** Cap on the length of the error message a retry sends; default 2000 characters. */
  maxFeedbackLength?: number;
  /**
   * The validation failures kept per attempt (in `StructuredOutputError.errors` and the
   * retry's feedback); the rest are counted (`errorCount`). Default 20.
   */
  maxIssues?: number | undefined;
  /** The deepest nesting of objects and arrays accepted in an answer; default 64, at most 1000. */
  maxDepth?: number | undefined;
  /** Default `Order.STRUCTURED_OUTPUT` (`HIGHEST_PRECEDENCE + 250`): inside memory, outside the tool loop. */
  order?: number;
  /** Default `'structured-output-validation'`. */
  name?: string;
}

/** The defaults of {@link StructuredOutputValidationAdvisorOptions} (`instructions`: `!native`). */
const DEFAULTS = {
  maxAttempts: 3,
  native: false,
  onExhausted: 'error',
  schemaName: 'response',
  maxFeedbackLength: 2000,
  order: Order.STRUCTURED_OUTPUT,
  name: 'structured-output-validation',
  ...SCHEMA_LIMIT_DEFAULTS,
} as const;

const RULES: OptionRules<StructuredOutputValidationAdvisorOptions> = {
  maxAttempts: Rules.integer(1),
  native: Rules.boolean,
  instructions: Rules.custom(
    'true, false or a function of the schema returning the text',
    (value) => typeof value === 'boolean' || typeof value === 'function',
  ),
  onExhausted: Rules.oneOf('error', 'return-last'),
  schemaName: Rules.nonEmptyString,
  maxFeedbackLength: Rules.integer(200),
  ...ADVISOR_IDENTITY_RULES,
  order: narrowOrder(Rules.integer()),
  ...SCHEMA_LIMIT_RULES,
};

/** One run (subscription): every attempt's kept failures, their count, the loop's mark. */
interface ValidationRun {
  readonly issues: StructuredOutputIssue[];
  count: number;
  readonly loopAtStart: TranscriptMark;
  /** The last answer sent back for a retry: the reason a later failure was a retry. */
  rejected?: { readonly attempt: number; readonly text: string };
}

/** The run of each subscription, by its call context, for the error of a failed retry. */
const runsByContext = new WeakMap<object, ValidationRun>();

/**
 * Validates the answer as JSON against `outputSchema`; when it does not match, runs the
 * rest of the chain again with the errors added as a new user message (after the failed
 * answer), up to `maxAttempts` model calls. Usage is summed over attempts. In stream mode
 * every attempt streams through, and a `retry` chunk marks each new attempt.
 *
 * Placed by default between memory (+200) and the tool loop (+300): a tool round is never
 * validated, and memory stores the user message once however many retries there are.
 *
 * @example
 * ```ts
 * import { ChatClient, StructuredOutputValidationAdvisor } from 'rx-advisors';
 * import { z } from 'zod';
 *
 * const Person = z.object({ name: z.string(), age: z.number().int() });
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new StructuredOutputValidationAdvisor({ outputSchema: Person, maxAttempts: 3 }))
 *   .build();
 * client.prompt('Invent a person').call().entity(Person).subscribe((person) => console.log(person.name));
 * ```
 */
export class StructuredOutputValidationAdvisor<T = unknown> implements Advisor {
  readonly name: string;
  readonly order: number;
  /** The output schema as JSON Schema (zod schemas converted). */
  readonly jsonSchema: JsonSchema;
  private readonly schema: CompiledOutputSchema<T>;
  private readonly maxAttempts: number;
  private readonly onExhausted: 'error' | 'return-last';
  private readonly maxFeedbackLength: number;
  private readonly limits: { readonly maxDepth: number; readonly maxIssues: number };
  private readonly delegate: Advisor;

  /** @param options The schema, attempts, native mode, instructions and placement. */
  constructor(options: StructuredOutputValidationAdvisorOptions<T>) {
    const {
      outputSchema,
      maxAttempts,
      native,
      instructions = !native,
      onExhausted,
      schemaName,
      maxFeedbackLength,
      order,
      name,
      maxDepth,
      maxIssues,
    } = withDefaults(
      DEFAULTS,
      validateOptions<StructuredOutputValidationAdvisorOptions<T>>(options, RULES),
    );
    this.schema = compileOutputSchema(outputSchema);
    this.limits = { maxDepth, maxIssues };
    this.jsonSchema = this.schema.jsonSchema;
    this.name = name;
    this.order = order;
    this.maxAttempts = maxAttempts;
    this.onExhausted = onExhausted;
    this.maxFeedbackLength = maxFeedbackLength;
    const instructionText =
      instructions === false
        ? undefined
        : instructions === true
          ? formatInstructions(this.jsonSchema)
          : instructions(this.jsonSchema);
    const responseFormat = native
      ? ({
          type: 'json-schema',
          schema: withoutMetaSchema(this.jsonSchema),
          name: schemaName,
          strict: true,
        } as const)
      : undefined;
    this.delegate = recursiveAdvisor<ValidationRun>({
      name,
      order,
      before: (request) => {
        let prepared = request;
        if (responseFormat !== undefined) prepared = prepared.withOptions({ responseFormat });
        if (instructionText !== undefined) {
          prepared = prepared.withMessages(insertSystem(prepared.messages, instructionText));
        }
        return prepared;
      },
      start: (originalRequest) => {
        const run: ValidationRun = {
          issues: [],
          count: 0,
          loopAtStart: ToolLoopTranscript.of(originalRequest.context).mark(),
        };
        runsByContext.set(originalRequest.context, run);
        return run;
      },
      next: (state, run) => this.decide(state, run),
    });
  }

  /**
   * Runs the chain, validating each answer and retrying with the errors.
   * @param request The request.
   * @param chain The rest of the chain.
   * @returns The attempts' chunks, `retry` chunks between them, then metadata, usage, finish.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() =>
      this.delegate.advise(request, chain).pipe(
        // A retry that fails before it answers (the model call errors, a mock script runs
        // out): say both causes, the failure and why there was a retry.
        catchError((error: unknown) => {
          const run = runsByContext.get(request.context);
          if (run?.rejected === undefined || StructuredOutputError.isInstance(error)) throw error;
          throw new StructuredOutputError({
            attempts: run.rejected.attempt,
            errors: run.issues,
            lastText: run.rejected.text,
            errorCount: run.count,
            cause: error,
          });
        }),
      ),
    );
  }

  private decide(state: RecursionState, run: ValidationRun): RecursionStep | undefined {
    const { response, attempt, originalRequest } = state;
    // Errors propagate; a round that ends in tool calls is the caller's loop, not an answer.
    if (response === undefined || response.finishReason === 'tool-calls') return undefined;
    const result = parseAnswer(response.text, this.schema, this.limits);
    if (result.valid) return undefined;
    for (const issue of result.issues) run.issues.push({ attempt, ...issue });
    run.count += result.issueCount;
    if (attempt >= this.maxAttempts) {
      if (this.onExhausted === 'return-last') return undefined;
      throw new StructuredOutputError({
        attempts: attempt,
        errors: run.issues,
        lastText: response.text,
        errorCount: run.count,
        lastAttemptErrorCount: result.issueCount,
      });
    }
    run.rejected = { attempt, text: response.text };
    const feedback = validationFeedback({
      issues: result.issues,
      issueCount: result.issueCount,
      maxLength: this.maxFeedbackLength,
    });
    const first = result.issues[0];
    return {
      request: originalRequest.appendMessages(
        ...previousAttemptMessages(state, response, feedback, run.loopAtStart),
      ),
      reason: `invalid structured output (${result.issueCount} error(s); first: ${first === undefined ? '' : `${first.path || '(answer)'} ${first.message}`.slice(0, 200)})`,
    };
  }
}

function insertSystem(messages: readonly Message[], content: string): Message[] {
  let at = 0;
  while (messages[at]?.role === 'system') at++;
  return [...messages.slice(0, at), { role: 'system', content }, ...messages.slice(at)];
}
