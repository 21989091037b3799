/** Keys that look like provider API keys (`sk-…`, `sk-ant-…`, `sk-proj-…`), masked or not. */
const KEY_PATTERN = /\bsk-[A-Za-z0-9_*-]{4,}/g;
/** Bearer tokens, in case a server echoes an Authorization header. */
const BEARER_PATTERN = /\bBearer\s+[A-Za-z0-9_*.~+/=-]+/gi;
/** Shorter strings are not treated as secrets (an empty or tiny key would redact everything). */
const MIN_SECRET_LENGTH = 8;

/**
 * Removes secrets from a text before it goes into an error message: every given secret
 * (as it is, and URL-encoded, the way a server echoes a query string), anything shaped
 * like an `sk-…` key and every `Bearer` token.
 *
 * @example
 * ```ts
 * import { redactSecrets } from 'rx-advisors/provider-kit';
 *
 * redactSecrets('bad key my-secret-value', ['my-secret-value']); // 'bad key [redacted]'
 * ```
 * @param text A message that may quote a secret (provider error bodies sometimes do).
 * @param secrets Exact secrets to remove, such as {@link clientSecrets} returns.
 *   Secrets shorter than 8 characters are ignored.
 * @returns The text with every secret replaced by `[redacted]`.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  // Longest first, so a secret that contains another is removed whole.
  const sorted = secrets
    .filter(
      (secret): secret is string => secret !== undefined && secret.length >= MIN_SECRET_LENGTH,
    )
    .sort((a, b) => b.length - a.length);
  for (const secret of sorted) {
    for (const form of new Set([secret, encodeURIComponent(secret), formEncode(secret)])) {
      result = result.split(form).join('[redacted]');
    }
  }
  return result.replace(KEY_PATTERN, '[redacted]').replace(BEARER_PATTERN, 'Bearer [redacted]');
}

/**
 * The secrets an SDK client holds, so that they can be redacted from error messages:
 * its `apiKey` and `authToken`, and every value of the `defaultHeaders` and
 * `defaultQuery` it was constructed with (custom auth headers, keys in query strings;
 * all values count, because a header's name does not tell whether its value is secret).
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { clientSecrets } from 'rx-advisors/provider-kit';
 *
 * const client = new OpenAI({ apiKey: 'sk-…', defaultQuery: { key: 'query-secret' } });
 * clientSecrets(client); // ['sk-…', 'query-secret']
 * ```
 * @param client An `openai` or `@anthropic-ai/sdk` client, or any object with those fields.
 * @returns The secrets found, as strings.
 */
export function clientSecrets(client: unknown): string[] {
  const secrets: string[] = [];
  const record = asRecord(client);
  if (record === undefined) return secrets;
  for (const field of ['apiKey', 'authToken']) {
    const value = record[field];
    if (typeof value === 'string') secrets.push(value);
  }
  // Both SDKs keep their constructor options in `_options`.
  const options = asRecord(record['_options']);
  collectValues(options?.['defaultHeaders'], secrets);
  collectValues(options?.['defaultQuery'], secrets);
  return secrets;
}

/** Header values from any `HeadersLike` shape: Headers, `[name, value][]` or a record. */
function collectValues(headers: unknown, into: string[]): void {
  if (typeof headers !== 'object' || headers === null) return;
  const add = (value: unknown): void => {
    if (typeof value === 'string') into.push(value);
    else if (Array.isArray(value)) for (const item of value) add(item);
  };
  if (typeof (headers as { forEach?: unknown }).forEach === 'function' && !Array.isArray(headers)) {
    (headers as { forEach(callback: (value: unknown) => void): void }).forEach(add);
    return;
  }
  if (Array.isArray(headers)) {
    for (const entry of headers) {
      // Either [name, value] tuples or nested HeadersLike values.
      if (Array.isArray(entry) && entry.length === 2) add(entry[1]);
      else collectValues(entry, into);
    }
    return;
  }
  for (const value of Object.values(headers)) add(value);
}

/** How `URLSearchParams` writes a value (spaces as `+`). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)
    : undefined;
}
