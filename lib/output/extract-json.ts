import { validateOptions, withDefaults } from '../core/validate-options.js';
import { parseJson } from '../schema/parse-json.js';
import {
  SCHEMA_LIMIT_DEFAULTS,
  SCHEMA_LIMIT_RULES,
  type SchemaLimits,
} from '../schema/schema-limits.js';
import type { ValidationIssue } from '../schema/validation-issue.js';
import { PartialJsonScanner } from './partial-json-scanner.js';

/**
 * The outcome of {@link extractJson}.
 *
 * @example
 * ```ts
 * import { extractJson, type ExtractedJson } from 'rx-advisors';
 * const result: ExtractedJson = extractJson('{"a": 1}');
 * if (result.ok) console.log(result.value); else console.log(result.issue.message);
 * ```
 */
export type ExtractedJson = { ok: true; value: unknown } | { ok: false; issue: ValidationIssue };

/**
 * Options of {@link extractJson}.
 *
 * @example
 * ```ts
 * import { extractJson, type ExtractJsonOptions } from 'rx-advisors';
 * const options: ExtractJsonOptions = { maxDepth: 16 };
 * extractJson('{"a": [1]}', options);
 * ```
 */
export type ExtractJsonOptions = Pick<SchemaLimits, 'maxDepth'>;

const FENCE = /```[ \t]*(?:json[c5]?|JSON)?[ \t]*\r?\n?([\s\S]*?)```/;

/**
 * Finds and parses the JSON in a model's answer: the whole answer when it is JSON, else
 * the first fenced code block, else the first balanced `{…}` or `[…]` in the prose.
 * Parsing is safe: `__proto__` keys (and `constructor` keys whose value has a `prototype`
 * key) are dropped, whatever escapes they are written with, so a parsed answer can be
 * merged into other objects without reaching a prototype; JSON nested deeper than
 * `maxDepth` (default 64) is reported as "nested too deeply", in linear time.
 *
 * @example
 * ```ts
 * import { extractJson } from 'rx-advisors';
 * extractJson('Sure! ```json\n{"a": 1}\n```'); // { ok: true, value: { a: 1 } }
 * extractJson('no json here'); // { ok: false, issue: { path: '', message: '…' } }
 * ```
 * @param text The answer text.
 * @param options `maxDepth`: the deepest nesting accepted (default 64).
 * @returns The parsed value, or an issue saying what is wrong.
 */
export function extractJson(text: string, options?: ExtractJsonOptions): ExtractedJson {
  const { maxDepth } = withDefaults(
    { maxDepth: SCHEMA_LIMIT_DEFAULTS.maxDepth },
    validateOptions<ExtractJsonOptions>(options, { maxDepth: SCHEMA_LIMIT_RULES.maxDepth }),
  );
  const trimmed = text.trim();
  if (trimmed === '') {
    return { ok: false, issue: { path: '', message: 'the answer was empty; expected JSON' } };
  }
  const whole = parseJson(trimmed, maxDepth);
  if (whole.ok) return whole;
  // Too deep as a whole is too deep in any part: no second look at fences and prose.
  if (whole.reason === 'too-deep')
    return { ok: false, issue: { path: '', message: whole.message } };
  const fenced = FENCE.exec(trimmed)?.[1];
  if (fenced !== undefined) {
    return withContext(safeParse(fenced.trim(), maxDepth), 'the fenced code block');
  }
  const scanner = new PartialJsonScanner();
  scanner.feed(trimmed);
  if (scanner.start === -1) {
    return {
      ok: false,
      issue: { path: '', message: 'the answer contains no JSON object or array' },
    };
  }
  if (!scanner.done) {
    return {
      ok: false,
      issue: { path: '', message: 'the JSON in the answer is incomplete (unbalanced brackets)' },
    };
  }
  return withContext(
    safeParse(trimmed.slice(scanner.start, scanner.end), maxDepth),
    'the JSON found',
  );
}

function safeParse(text: string, maxDepth: number): ExtractedJson {
  const parsed = parseJson(text, maxDepth);
  if (parsed.ok) return parsed;
  return { ok: false, issue: { path: '', message: parsed.message } };
}

function withContext(result: ExtractedJson, where: string): ExtractedJson {
  if (result.ok) return result;
  return { ok: false, issue: { path: '', message: `${where} ${result.issue.message}` } };
}
