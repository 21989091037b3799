import { PartialJsonScanner } from './partial-json-scanner.js';
import type { ValidationIssue } from './output-schema.js';

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

const FENCE = /```[ \t]*(?:json[c5]?|JSON)?[ \t]*\r?\n?([\s\S]*?)```/;

/**
 * Finds and parses the JSON in a model's answer: the whole answer when it is JSON, else
 * the first fenced code block, else the first balanced `{…}` or `[…]` in the prose.
 * Parsing is safe: `__proto__` keys are dropped, so a parsed answer can be merged into
 * other objects without changing their prototype.
 *
 * @example
 * ```ts
 * import { extractJson } from 'rx-advisors';
 * extractJson('Sure! ```json\n{"a": 1}\n```'); // { ok: true, value: { a: 1 } }
 * extractJson('no json here'); // { ok: false, issue: { path: '', message: '…' } }
 * ```
 * @param text The answer text.
 * @returns The parsed value, or an issue saying what is wrong.
 */
export function extractJson(text: string): ExtractedJson {
  const trimmed = text.trim();
  if (trimmed === '') {
    return { ok: false, issue: { path: '', message: 'the answer was empty; expected JSON' } };
  }
  const whole = safeParse(trimmed);
  if (whole.ok) return whole;
  const fenced = FENCE.exec(trimmed)?.[1];
  if (fenced !== undefined) return withContext(safeParse(fenced.trim()), 'the fenced code block');
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
  return withContext(safeParse(trimmed.slice(scanner.start, scanner.end)), 'the JSON found');
}

/**
 * `JSON.parse` that drops `__proto__` keys and reports errors as an issue.
 * @internal
 */
export function safeParse(text: string): ExtractedJson {
  try {
    return { ok: true, value: JSON.parse(text, dropProtoKeys) as unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, issue: { path: '', message: `is not valid JSON (${reason})` } };
  }
}

function dropProtoKeys(key: string, value: unknown): unknown {
  return key === '__proto__' ? undefined : value;
}

function withContext(result: ExtractedJson, where: string): ExtractedJson {
  if (result.ok) return result;
  return { ok: false, issue: { path: '', message: `${where} ${result.issue.message}` } };
}
