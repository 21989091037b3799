import type Ajv from 'ajv';
import type Ajv2020 from 'ajv/dist/2020.js';
import type AjvCore from 'ajv/dist/core.js';
import type { JsonSchema } from '../core/tool-definition.js';
import { loadAjv } from './load-ajv.js';
import { safeIntegerKeyword } from './safe-integer-keyword.js';

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

/** The keywords that, not being values, may hold subschemas worth looking into. */
const VALUE_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

/**
 * The ajv instance for the dialect `schema` is written in: draft-07 when its `$schema`
 * names draft-04 to -07, draft 2020-12 when it names 2020-12; without `$schema`, draft-07
 * when it uses draft-07's array form of `items` or `additionalItems` anywhere (tuples
 * written the old way), else draft 2020-12. Tool arguments and structured output use the
 * same rule, so one schema validates alike in both. Both instances have ajv-formats,
 * `allErrors`, `strictNumbers` (`NaN` and `±Infinity`, which `JSON.parse` makes of
 * `1e400`, are not numbers) and the safe-integer keyword of `withSafeIntegers`.
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
  // ajv is loaded here, when the first schema is compiled (see `loadAjv`).
  if (older) return (draft07 ??= configure(new (loadAjv().Ajv)(AJV_OPTIONS)));
  return (draft2020 ??= configure(new (loadAjv().Ajv2020)(AJV_OPTIONS)));
}

const AJV_OPTIONS = { allErrors: true, strict: false, strictNumbers: true } as const;

function configure<A extends AjvCore>(ajv: A): A {
  loadAjv().addFormats(ajv);
  ajv.addKeyword(safeIntegerKeyword);
  return ajv;
}

/**
 * `schema` without its top-level `$schema`: the dialect is chosen from it before
 * compiling, ajv has no meta-schema for drafts before 07, and providers' native structured
 * output and tool definitions do not want it.
 * @internal
 * @param schema A JSON Schema.
 * @returns The schema, `$schema` left out (the same object when it has none).
 */
export function withoutMetaSchema(schema: JsonSchema): JsonSchema {
  if (!('$schema' in schema)) return schema;
  const { $schema: _ignored, ...rest } = schema;
  return rest;
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
