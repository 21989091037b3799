/**
 * The `default` of an exhaustive `switch`: the compiler proves it unreachable (a new
 * variant fails the build); at run time, a value from outside the types (a JavaScript
 * caller, a newer SDK) fails loudly instead of being dropped.
 * @internal
 * @example
 * ```ts
 * switch (message.role) {
 *   case 'user': return 1;
 *   // … every role …
 *   default: return assertNever(message);
 * }
 * ```
 * @param value What the switch did not expect.
 * @param what The words before the value in the error's message.
 * @returns Never: it throws a `TypeError` naming the value.
 */
export function assertNever(value: never, what = 'Unexpected value'): never {
  throw new TypeError(`${what}: ${JSON.stringify(value)}`);
}
