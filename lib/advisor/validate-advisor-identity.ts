import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/**
 * Checks the name and order every advisor factory takes, with the same typed errors.
 * @internal
 * @example
 * ```ts
 * validateAdvisorIdentity({ name: 'audit', order: 0 });
 * ```
 * @param options The advisor's name and order.
 */
export function validateAdvisorIdentity(options: { name: unknown; order: unknown }): void {
  const { name, order } = options;
  if (typeof name !== 'string' || name === '') {
    throw new InvalidOptionsError({ option: 'name', value: name, expected: 'a non-empty string' });
  }
  if (typeof order !== 'number' || Number.isNaN(order)) {
    throw new InvalidOptionsError({
      option: 'order',
      value: order,
      expected: 'a number (see Order)',
    });
  }
}
