import { InvalidOptionsError } from '../../errors/invalid-options-error.js';

/**
 * Checks that `client` has a function at `path` (e.g. `chat.completions.create`), so a
 * wrong or missing client fails in the constructor, not at the first call.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { validateClient } from 'rx-advisors/provider-kit';
 *
 * validateClient(new OpenAI(), ['chat', 'completions', 'create'], 'an OpenAI client');
 * validateClient({}, ['messages', 'create'], 'an Anthropic client'); // throws InvalidOptionsError
 * ```
 * @param client The value given as `client`.
 * @param path The method path the adapter calls.
 * @param expected What to construct instead, for the error message.
 * @throws InvalidOptionsError naming the `client` option when the method is missing.
 */
export function validateClient(client: unknown, path: readonly string[], expected: string): void {
  let current: unknown = client;
  for (const key of path) {
    current =
      typeof current === 'object' && current !== null
        ? (current as Record<string, unknown>)[key]
        : undefined;
  }
  if (typeof current !== 'function') {
    throw new InvalidOptionsError({
      option: 'client',
      value: client,
      expected: `${expected} (an object with ${path.join('.')}())`,
    });
  }
}
