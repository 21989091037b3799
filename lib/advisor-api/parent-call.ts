import { ContextKeys } from './context-keys.js';

/**
 * The `request.context` of the call a call is nested in (`ContextKeys.PARENT_CALL`: a
 * `ChatClient` run as a tool links its call to the call whose tool loop runs it), or
 * `undefined` for a top-level call.
 * @example
 * ```ts partial
 * import { parentCallOf } from 'rx-advisors/advisor-api';
 * const nested = parentCallOf(request.context) !== undefined;
 * ```
 * @param context A call's `request.context`.
 * @returns The parent call's context, or `undefined`.
 */
export function parentCallOf(
  context: ReadonlyMap<string, unknown>,
): ReadonlyMap<string, unknown> | undefined {
  const parent = context.get(ContextKeys.PARENT_CALL);
  return parent instanceof Map && parent !== context
    ? (parent as ReadonlyMap<string, unknown>)
    : undefined;
}

/**
 * How deep a call is nested: 0 for a top-level call, 1 for a call run by a top-level
 * call's tool, and so on. A chain of parents that comes back on itself stops counting
 * where it repeats.
 * @example
 * ```ts partial
 * import { callDepth } from 'rx-advisors/advisor-api';
 * if (callDepth(request.context) > 3) throw new Error('agents nested too deep');
 * ```
 * @param context A call's `request.context`.
 * @returns The number of calls above this one.
 */
export function callDepth(context: ReadonlyMap<string, unknown>): number {
  const seen = new Set<ReadonlyMap<string, unknown>>([context]);
  let depth = 0;
  for (let parent = parentCallOf(context); parent !== undefined; parent = parentCallOf(parent)) {
    if (seen.has(parent)) break;
    seen.add(parent);
    depth++;
  }
  return depth;
}
