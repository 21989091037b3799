import type { JsonSchema } from '../core/tool-definition.js';

/**
 * The default format instructions: answer with JSON only, matching the schema.
 *
 * @example
 * ```ts
 * import { formatInstructions } from 'rx-advisors';
 * formatInstructions({ type: 'object', properties: { name: { type: 'string' } } });
 * ```
 * @param schema The JSON Schema the answer must match.
 * @returns The instruction text the advisor sends as a system message.
 */
export function formatInstructions(schema: JsonSchema): string {
  return (
    'Your answer must be a JSON value that matches this JSON Schema. ' +
    'Answer with the JSON only: no explanations, no Markdown code fences.\n' +
    '```json\n' +
    JSON.stringify(schema, null, 2) +
    '\n```'
  );
}
