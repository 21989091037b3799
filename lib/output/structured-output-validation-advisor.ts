import { defer, type Observable } from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor/advisor.js';
import { ContextKeys } from '../advisor/context-keys.js';
import { Order } from '../advisor/order.js';
import { previousAttemptMessages } from '../advisor/previous-attempt-messages.js';
import {
  recursiveAdvisor,
  type RecursionState,
  type RecursionStep,
} from '../advisor/recursive-advisor.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { Message } from '../core/message.js';
import type { JsonSchema } from '../core/tool-definition.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import {
  StructuredOutputError,
  type StructuredOutputIssue,
} from '../errors/structured-output-error.js';
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
  /** Default `Order.STRUCTURED_OUTPUT` (`HIGHEST_PRECEDENCE + 250`): inside memory, outside the tool loop. */
  order?: number;
  /** Default `'structured-output-validation'`. */
  name?: string;
}

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
  private readonly prepare: (request: ChatRequest) => ChatRequest;

  /** @param options The schema, attempts, native mode, instructions and placement. */
  constructor(options: StructuredOutputValidationAdvisorOptions<T>) {
    const {
      outputSchema,
      maxAttempts = 3,
      native = false,
      instructions = !native,
      onExhausted = 'error',
      schemaName = 'response',
      maxFeedbackLength = 2000,
      order = Order.STRUCTURED_OUTPUT,
      name = 'structured-output-validation',
    } = options ?? {};
    requireInteger('maxAttempts', maxAttempts, 1);
    requireInteger('maxFeedbackLength', maxFeedbackLength, 200);
    if (onExhausted !== 'error' && onExhausted !== 'return-last') {
      throw new InvalidOptionsError({
        option: 'onExhausted',
        value: onExhausted,
        expected: "'error' or 'return-last'",
      });
    }
    this.schema = compileOutputSchema(outputSchema);
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
    this.prepare = (request) => {
      let prepared = request;
      if (responseFormat !== undefined) prepared = prepared.withOptions({ responseFormat });
      if (instructionText !== undefined) {
        prepared = prepared.withMessages(insertSystem(prepared.messages, instructionText));
      }
      return prepared;
    };
  }

  /**
   * Runs the chain, validating each answer and retrying with the errors.
   * @param request The request.
   * @param chain The rest of the chain.
   * @returns The attempts' chunks, `retry` chunks between them, then metadata, usage, finish.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      const issues: StructuredOutputIssue[] = [];
      const loopAtStart = request.context.get(ContextKeys.TOOL_LOOP_MESSAGES);
      return recursiveAdvisor({
        name: this.name,
        order: this.order,
        before: this.prepare,
        next: (state) => this.decide(state, issues, loopAtStart),
      }).advise(request, chain);
    });
  }

  private decide(
    state: RecursionState,
    issues: StructuredOutputIssue[],
    loopAtStart: unknown,
  ): RecursionStep | undefined {
    const { response, attempt, originalRequest } = state;
    // Errors propagate; a round that ends in tool calls is the caller's loop, not an answer.
    if (response === undefined || response.finishReason === 'tool-calls') return undefined;
    const result = parseAnswer(response.text, this.schema);
    if (result.valid) return undefined;
    for (const issue of result.issues) issues.push({ attempt, ...issue });
    if (attempt >= this.maxAttempts) {
      if (this.onExhausted === 'return-last') return undefined;
      throw new StructuredOutputError({
        attempts: attempt,
        errors: issues,
        lastText: response.text,
      });
    }
    const feedback = validationFeedback({
      issues: result.issues,
      maxLength: this.maxFeedbackLength,
    });
    const first = result.issues[0];
    return {
      request: originalRequest.appendMessages(
        ...previousAttemptMessages(state, response, feedback, loopAtStart),
      ),
      reason: `invalid structured output (${result.issues.length} error(s); first: ${first === undefined ? '' : `${first.path || '(answer)'} ${first.message}`.slice(0, 200)})`,
    };
  }
}

function insertSystem(messages: readonly Message[], content: string): Message[] {
  let at = 0;
  while (messages[at]?.role === 'system') at++;
  return [...messages.slice(0, at), { role: 'system', content }, ...messages.slice(at)];
}

function withoutMetaSchema(schema: JsonSchema): JsonSchema {
  if (!('$schema' in schema)) return schema;
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

function requireInteger(option: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) {
    throw new InvalidOptionsError({ option, value, expected: `an integer of at least ${min}` });
  }
}
