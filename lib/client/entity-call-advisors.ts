import { advisor, type Advisor } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { Message } from '../core/message.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { compileOutputSchema } from '../output/compile-output-schema.js';
import { entityAdvisors } from '../output/entity-advisors.js';
import type { EntityOptions } from '../output/entity-options.js';
import { formatInstructions } from '../output/format-instructions.js';
import type { OutputSchema } from '../output/output-schema.js';
import { StructuredOutputValidationAdvisor } from '../output/structured-output-validation-advisor.js';

/** The format-instructions advisors `entity()` created (recognised by identity, not name). */
const INSTRUCTION_ADVISORS = new WeakSet<Advisor>();

/**
 * The advisors `call().entity()` and `stream().entity()` add to their call: the validation
 * advisor with `validate` (given the top-level `instructions` unless `validate` sets its
 * own), else an advisor that sends the format instructions as a system message (after the
 * call's system messages), skipped when the request asks for native structured output.
 * @internal
 * @param schema The entity's schema.
 * @param options The entity options.
 * @returns The advisors to add.
 */
export function entityCallAdvisors(schema: OutputSchema, options: EntityOptions): Advisor[] {
  const { validate = false, instructions = true } = options;
  if (typeof instructions !== 'boolean' && typeof instructions !== 'function') {
    throw new InvalidOptionsError({
      option: 'instructions',
      value: instructions,
      expected: 'true, false or a function of the schema returning the text',
    });
  }
  if (validate !== false) {
    const settings = validate === true ? {} : validate;
    const merged = settings.instructions === undefined && options.instructions !== undefined;
    return entityAdvisors(
      schema,
      merged ? { ...options, validate: { ...settings, instructions } } : options,
    );
  }
  if (instructions === false) return [];
  const jsonSchema = compileOutputSchema(schema, 'schema').jsonSchema;
  const text = instructions === true ? defaultInstructions(jsonSchema) : instructions(jsonSchema);
  const instructionsAdvisor = advisor({
    name: 'entity-format-instructions',
    order: Order.STRUCTURED_OUTPUT,
    before: (request) => withInstructions(request, text),
  });
  INSTRUCTION_ADVISORS.add(instructionsAdvisor);
  return [instructionsAdvisor];
}

/**
 * The call's advisors without the format-instructions advisor when a
 * `StructuredOutputValidationAdvisor` is registered too: it sends its own.
 * @internal
 * @param advisors Every advisor of the call.
 * @returns The advisors to chain.
 */
export function withoutRedundantInstructions(advisors: readonly Advisor[]): readonly Advisor[] {
  const validated = advisors.some((a) => a instanceof StructuredOutputValidationAdvisor);
  return validated ? advisors.filter((a) => !INSTRUCTION_ADVISORS.has(a)) : advisors;
}

/** The default text per schema, written once: `entity()` may run per request on a hot server. */
const DEFAULT_TEXTS = new WeakMap<object, string>();

function defaultInstructions(jsonSchema: Parameters<typeof formatInstructions>[0]): string {
  let text = DEFAULT_TEXTS.get(jsonSchema);
  if (text === undefined) {
    text = formatInstructions(jsonSchema);
    DEFAULT_TEXTS.set(jsonSchema, text);
  }
  return text;
}

function withInstructions(request: ChatRequest, text: string): ChatRequest {
  if (request.options.responseFormat?.type === 'json-schema') return request; // native: the schema is sent already
  const messages: Message[] = [...request.messages];
  let at = 0;
  while (messages[at]?.role === 'system') at++;
  messages.splice(at, 0, { role: 'system', content: text });
  return request.withMessages(messages);
}
