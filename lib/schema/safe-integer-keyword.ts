import type { CodeKeywordDefinition } from 'ajv';
import { loadAjv } from './load-ajv.js';

/** The keyword {@link withSafeIntegers} adds; never sent to a model. */
const KEYWORD = 'x-rx-advisors-safe-integer';

/** The keywords whose values are data, not subschemas. */
const VALUE_KEYWORDS = new Set(['enum', 'const', 'default', 'examples']);

/** Deeper schemas are left as they are (and so keep ajv's plain integer check). */
const MAX_SCHEMA_DEPTH = 256;

/**
 * The ajv keyword behind `type: 'integer'`'s safe range: a number that is an integer but
 * not a safe one (beyond 2^53 − 1 in magnitude, where a double no longer holds every
 * integer, so the model's digits were already rounded by `JSON.parse`) fails.
 * @internal
 */
export const safeIntegerKeyword: CodeKeywordDefinition = {
  keyword: KEYWORD,
  type: 'number',
  schemaType: 'boolean',
  error: {
    message:
      'must be a safe integer (at most 2^53 - 1 in magnitude; larger integers lose precision, send them as strings)',
  },
  code(context) {
    const { data } = context;
    const { _ } = loadAjv(); // loaded: ajv is compiling a schema
    context.fail(_`Number.isInteger(${data}) && !Number.isSafeInteger(${data})`);
  },
};

/**
 * A copy of `schema` where every subschema whose `type` is `integer` (and not also
 * `number`) carries {@link safeIntegerKeyword}, so ajv reports integers beyond 2^53 − 1
 * instead of accepting a silently rounded value. The copy is only compiled; the schema
 * sent to a model is the original.
 * @internal
 * @param schema A JSON Schema.
 * @returns The marked copy (or `schema` itself when nothing needs marking).
 */
export function withSafeIntegers<T>(schema: T): T {
  return mark(schema, 0) as T;
}

function mark(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null || depth > MAX_SCHEMA_DEPTH) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item: unknown) => {
      const marked = mark(item, depth + 1);
      if (marked !== item) changed = true;
      return marked;
    });
    return changed ? items : value;
  }
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(record)) {
    if (VALUE_KEYWORDS.has(key)) continue;
    const marked = mark(record[key], depth + 1);
    if (marked !== record[key]) (copy ??= { ...record })[key] = marked;
  }
  if (isIntegerOnly(record['type'])) (copy ??= { ...record })[KEYWORD] = true;
  return copy ?? record;
}

function isIntegerOnly(type: unknown): boolean {
  if (type === 'integer') return true;
  return Array.isArray(type) && type.includes('integer') && !type.includes('number');
}
