import { dropUnsafeKeys, UnsafeKeyMatcher } from './unsafe-keys.js';
import { errorMessageOf } from '../errors/error-details.js';

/**
 * The outcome of {@link parseJson}: the value, or why there is none, as the message of a
 * validation issue about the whole text.
 * @internal
 */
export type ParsedJson =
  | { ok: true; value: unknown }
  | {
      ok: false;
      reason: 'malformed-json' | 'too-deep';
      /** What is wrong, worded as an issue about the whole text (`is not valid JSON (…)`). */
      message: string;
      /** The bare reason (`JSON.parse`'s own message, or the depth rule). */
      detail: string;
      /** `JSON.parse`'s error, when it threw. */
      cause?: unknown;
    };

const OBJECT = 0;
const ARRAY = 1;

/**
 * Parses untrusted JSON (a model's answer, a tool's arguments) safely, in time linear in
 * its length: one scan checks the nesting depth and looks for keys that may be dropped,
 * then the native `JSON.parse` runs, with the {@link dropUnsafeKeys} reviver only when such
 * a key (or any escaped key) is present. JSON nested deeper than `maxDepth` is rejected
 * before parsing, with a message that says so (never a stack overflow).
 * @internal
 * @param text The JSON text.
 * @param maxDepth The deepest nesting of objects and arrays accepted.
 * @returns The value, or the reason and a message.
 */
export function parseJson(text: string, maxDepth: number): ParsedJson {
  const shape = inspectJson(text, maxDepth);
  if (shape === TOO_DEEP) {
    const detail = `more than ${maxDepth} levels of objects and arrays (maxDepth ${maxDepth})`;
    return { ok: false, reason: 'too-deep', message: `is nested too deeply: ${detail}`, detail };
  }
  try {
    const value: unknown =
      shape === UNSAFE_KEYS ? JSON.parse(text, dropUnsafeKeys) : JSON.parse(text);
    return { ok: true, value };
  } catch (error) {
    const detail = errorMessageOf(error);
    return {
      ok: false,
      reason: 'malformed-json',
      message: `is not valid JSON (${detail})`,
      detail,
      cause: error,
    };
  }
}

const PLAIN = 0;
const UNSAFE_KEYS = 1;
const TOO_DEEP = 2;

// Lenient: it only follows strings and brackets; `JSON.parse` judges the syntax after it.
function inspectJson(text: string, maxDepth: number): number {
  const containers: number[] = [];
  const keys = new UnsafeKeyMatcher();
  let result = PLAIN;
  let inString = false;
  let isKey = false;
  let escaped = false;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (code === 0x5c) escaped = true;
      else if (code === 0x22) {
        inString = false;
        if (isKey && keys.unsafe) result = UNSAFE_KEYS;
        continue;
      }
      if (isKey) keys.next(code);
      continue;
    }
    switch (code) {
      case 0x22: // "
        inString = true;
        isKey = expectKey;
        expectKey = false;
        if (isKey) keys.start();
        break;
      case 0x7b: // {
      case 0x5b: // [
        containers.push(code === 0x7b ? OBJECT : ARRAY);
        if (containers.length > maxDepth) return TOO_DEEP;
        expectKey = code === 0x7b;
        break;
      case 0x7d: // }
      case 0x5d: // ]
        containers.pop();
        expectKey = false;
        break;
      case 0x2c: // ,
        expectKey = containers[containers.length - 1] === OBJECT;
        break;
      default:
        break;
    }
  }
  return result;
}
