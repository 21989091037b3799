/** Keys that look like provider API keys (`sk-…`, `sk-ant-…`, `sk-proj-…`), masked or not. */
const KEY_PATTERN = /\bsk-[A-Za-z0-9_*-]{4,}/g;
/** Bearer tokens, in case a server echoes an Authorization header. */
const BEARER_PATTERN = /\bBearer\s+[A-Za-z0-9_*.~+/=-]+/gi;
/** Shorter strings are not treated as secrets (an empty or tiny key would redact everything). */
const MIN_SECRET_LENGTH = 8;

/**
 * Removes API keys from a text before it goes into an error message.
 * @internal
 * @param text A message that may quote a key (provider error bodies sometimes do).
 * @param secrets Exact secrets to remove, such as the SDK client's `apiKey`.
 * @returns The text with every key replaced by `[redacted]`.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= MIN_SECRET_LENGTH) {
      result = result.split(secret).join('[redacted]');
    }
  }
  return result.replace(KEY_PATTERN, '[redacted]').replace(BEARER_PATTERN, 'Bearer [redacted]');
}

/**
 * Reads the API key an SDK client holds, so that it can be redacted.
 * @internal
 * @param client An `openai` or `@anthropic-ai/sdk` client.
 * @returns The key, when the client exposes one as a string.
 */
export function clientSecrets(client: unknown): string[] {
  const secrets: string[] = [];
  if (typeof client === 'object' && client !== null) {
    for (const field of ['apiKey', 'authToken']) {
      const value = (client as Record<string, unknown>)[field];
      if (typeof value === 'string') secrets.push(value);
    }
  }
  return secrets;
}
