import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { validateAdvisorIdentity } from './validate-advisor-identity.js';

/**
 * Checks the options of `recursiveAdvisor()`: the name and order every advisor takes, a
 * `next` function and, when given, a `start` function, with the same typed errors as every
 * advisor's options.
 * @internal
 * @example
 * ```ts
 * validateRecursiveAdvisorOptions({ name: 'once-more', order: 0, next: () => undefined });
 * ```
 * @param options The advisor's name, order, `start` and `next`.
 * @throws InvalidOptionsError for the first option that is missing or of the wrong kind.
 */
export function validateRecursiveAdvisorOptions(options: {
  name: unknown;
  order: unknown;
  start?: unknown;
  next: unknown;
}): void {
  const { name, order, start, next } = options;
  validateAdvisorIdentity({ name, order });
  if (typeof next !== 'function') {
    throw new InvalidOptionsError({
      option: 'next',
      value: next,
      expected: 'a function (state) => next request or undefined to stop',
    });
  }
  if (start !== undefined && typeof start !== 'function') {
    throw new InvalidOptionsError({
      option: 'start',
      value: start,
      expected: 'a function (request) => the state of one run',
    });
  }
}
