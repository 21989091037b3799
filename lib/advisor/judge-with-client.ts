import { map, type Observable } from 'rxjs';
import type { ChatClient } from '../client/chat-client.js';
import { EntityParseError } from '../errors/entity-parse-error.js';
import { compileOutputSchema } from '../output/compile-output-schema.js';
import { parseAnswer } from '../output/parse-answer.js';
import { StructuredOutputValidationAdvisor } from '../output/structured-output-validation-advisor.js';
import type { EvaluationInput, EvaluationResult } from './evaluation-judge.js';

interface Verdict {
  pass: boolean;
  score?: number;
  feedback: string;
}

const VERDICT_SCHEMA = {
  type: 'object',
  properties: {
    pass: { type: 'boolean' },
    score: { type: 'number', minimum: 0, maximum: 10 },
    feedback: { type: 'string' },
  },
  required: ['pass', 'feedback'],
  additionalProperties: false,
};

const DEFAULT_INSTRUCTIONS =
  'You review answers. Judge whether the answer fully and correctly answers the question. ' +
  'Reply with JSON only: {"pass": boolean, "score": 0 to 10, "feedback": "what to improve"}.';

/**
 * Asks a judge `ChatClient` for a verdict on an answer, as validated JSON (retried with a
 * `StructuredOutputValidationAdvisor`), with the judge's usage.
 * @internal
 * @param client The judge.
 * @param input The question and the answer.
 * @param instructions The judge's system text.
 * @returns One verdict.
 */
export function judgeWithClient(
  client: ChatClient,
  input: EvaluationInput,
  instructions: string = DEFAULT_INSTRUCTIONS,
): Observable<EvaluationResult> {
  const schema = compileOutputSchema<Verdict>(VERDICT_SCHEMA);
  return client
    .prompt()
    .system(instructions)
    .user(`Question:\n${input.question ?? '(none)'}\n\nAnswer:\n${input.answer}`)
    .advisors(new StructuredOutputValidationAdvisor({ outputSchema: VERDICT_SCHEMA }))
    .call()
    .chatResponse()
    .pipe(
      map((response): EvaluationResult => {
        const result = parseAnswer(response.text, schema);
        if (!result.valid)
          throw new EntityParseError({ errors: result.issues, text: response.text });
        return { ...result.value, usage: response.usage };
      }),
    );
}
