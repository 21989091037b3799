import type { ResponseFormat } from '../../core/chat-options.js';

/** What both OpenAI APIs send for a JSON Schema response format. */
export interface OpenAiJsonSchemaFormat {
  name: string;
  schema: Record<string, unknown>;
  strict: boolean;
  description?: string;
}

/**
 * The JSON Schema response format as Chat Completions (`json_schema`) and Responses
 * (`text.format`) both take it: default name `'response'`, strict unless told otherwise.
 * @internal
 * @example
 * ```ts
 * jsonSchemaFormat({ type: 'json-schema', schema: { type: 'object' } });
 * // { name: 'response', schema: { type: 'object' }, strict: true }
 * ```
 * @param format The request's JSON Schema response format.
 * @returns The fields both APIs send.
 */
export function jsonSchemaFormat(
  format: Extract<ResponseFormat, { type: 'json-schema' }>,
): OpenAiJsonSchemaFormat {
  const fields: OpenAiJsonSchemaFormat = {
    name: format.name ?? 'response',
    schema: format.schema,
    strict: format.strict ?? true,
  };
  if (format.description !== undefined) fields.description = format.description;
  return fields;
}
