import type { JsonSchema } from '../core/tool-definition.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { ZodLikeSchema } from './zod-like-schema.js';
import { errorMessageOf } from '../errors/error-details.js';

interface ZodJsonSchemaSource {
  toJSONSchema?: (params: { io: 'input' }) => unknown;
  '~standard'?: { jsonSchema?: { input?: (options: { target: string }) => unknown } };
}

/**
 * The JSON Schema of a zod v4 schema, made by zod's own converter (the schema's
 * `toJSONSchema`, or Standard JSON Schema's `jsonSchema.input`), so the library never
 * imports zod. It describes what the model must write (`io: 'input'`: before zod's
 * transforms and defaults apply).
 * @internal
 * @param schema A zod v4 schema.
 * @param option The option to blame in an `InvalidOptionsError` (`'getTime.parameters'`).
 * @returns The JSON Schema, as zod writes it (its `$schema` included).
 */
export function zodToJsonSchema(schema: ZodLikeSchema, option: string): JsonSchema {
  const source = schema as unknown as ZodJsonSchemaSource;
  let converted: unknown;
  try {
    if (typeof source.toJSONSchema === 'function') converted = source.toJSONSchema({ io: 'input' });
    else converted = source['~standard']?.jsonSchema?.input?.({ target: 'draft-2020-12' });
  } catch (error) {
    throw new InvalidOptionsError({
      option,
      value: schema,
      expected: `a zod schema that zod can convert to JSON Schema (${errorMessageOf(error)})`,
    });
  }
  if (typeof converted !== 'object' || converted === null || Array.isArray(converted)) {
    throw new InvalidOptionsError({
      option,
      value: schema,
      expected:
        'a zod v4 classic schema (zod 4.2 or later), which converts itself to JSON Schema; zod/mini schemas cannot (pass z.toJSONSchema(schema) as a JSON Schema instead)',
    });
  }
  return converted as JsonSchema;
}
