import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './tool-definition.js';

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

/** The keywords that, not being values, may hold subschemas worth looking into. */
const VALUE_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

/**
 * The ajv instance (with ajv-formats, `allErrors`) for the dialect `schema` is written in:
 * draft-07 when its `$schema` names draft-04 to -07, draft 2020-12 when it names 2020-12;
 * without `$schema`, draft-07 when it uses draft-07's array form of `items` or
 * `additionalItems` anywhere (tuples written the old way), else draft 2020-12. Tool
 * arguments and structured output use the same rule, so one schema validates alike in both.
 * @internal
 * @example
 * ```ts
 * const validate = schemaValidator({ type: 'array', prefixItems: [{ type: 'string' }] }).compile(schema);
 * ```
 * @param schema The schema to compile.
 * @returns The ajv instance to compile it with.
 */
export function schemaValidator(schema: JsonSchema): Ajv | Ajv2020 {
  const declared = typeof schema['$schema'] === 'string' ? schema['$schema'] : undefined;
  const older =
    declared !== undefined ? /draft-0[4-7]/.test(declared) : usesDraft07Tuples(schema, 0);
  if (older) return (draft07 ??= addFormats(new Ajv({ allErrors: true, strict: false })));
  return (draft2020 ??= addFormats(new Ajv2020({ allErrors: true, strict: false })));
}

function usesDraft07Tuples(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null || depth > 64) return false;
  if (Array.isArray(value)) return value.some((item) => usesDraft07Tuples(item, depth + 1));
  const record = value as Record<string, unknown>;
  if (Array.isArray(record['items']) || record['additionalItems'] !== undefined) return true;
  for (const key of Object.keys(record)) {
    if (!VALUE_KEYWORDS.has(key) && usesDraft07Tuples(record[key], depth + 1)) return true;
  }
  return false;
}
