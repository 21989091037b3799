import { InvalidOptionsError } from '../../errors/invalid-options-error.js';

/**
 * Checks that `client` has a function at `path` (e.g. `chat.completions.create`), so a
 * wrong or missing client fails in the constructor, not at the first call.
 * @internal
 * @param client The value given as `client`.
 * @param path The method path the adapter calls.
 * @param expected What to construct instead, for the error message.
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

/**
 * Checks an optional string option that must not be empty.
 * @internal
 * @param option The option's name.
 * @param value Its value.
 */
export function validateName(option: string, value: unknown): void {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new InvalidOptionsError({ option, value, expected: 'a non-empty string' });
  }
}
