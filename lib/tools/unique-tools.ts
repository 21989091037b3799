import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { Tool } from '../core/tool.js';

/**
 * The tools of one call by name: a tool listed twice (as a default and again on the call)
 * counts once; two different tools with one name are an `InvalidOptionsError`, since the
 * model could not tell them apart and providers reject repeated function names.
 * @internal
 * @example
 * ```ts
 * const byName = toolsByName([getTime, getTime]); // Map { 'getTime' => getTime }
 * ```
 * @param tools The tools offered, in order.
 * @returns The tools keyed by name, in first-seen order.
 */
export function toolsByName(tools: readonly Tool[]): Map<string, Tool> {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    const known = byName.get(tool.name);
    if (known === undefined) byName.set(tool.name, tool);
    else if (known !== tool) throw duplicateName(tool.name);
  }
  return byName;
}

/**
 * `tools` without repeats of the same tool; throws `InvalidOptionsError` for two different
 * tools with one name (see {@link toolsByName}). Returns `tools` itself when nothing repeats.
 * @internal
 * @example
 * ```ts
 * uniqueTools([getTime, lookup, getTime]); // [getTime, lookup]
 * ```
 * @param tools The tools offered, in order.
 * @returns The tools, each once.
 */
export function uniqueTools(tools: readonly Tool[]): readonly Tool[] {
  if (tools.length < 2) return tools;
  const byName = toolsByName(tools);
  return byName.size === tools.length ? tools : [...byName.values()];
}

function duplicateName(name: string): InvalidOptionsError {
  return new InvalidOptionsError({
    option: 'tools',
    value: name,
    expected: `one tool per name (two different tools are named "${name}"; rename one)`,
  });
}

/**
 * Refuses a list that names one tool twice (`defaultTools(getTime, getTime)`): within one
 * list a repeat is a mistake, not a choice. (A default tool listed again on a call is
 * fine: {@link uniqueTools} counts it once.)
 * @internal
 * @example
 * ```ts
 * refuseRepeatedTools([getTime, getTime], 'defaultTools'); // throws InvalidOptionsError
 * ```
 * @param tools The list as given.
 * @param where The method that received it, for the error.
 * @returns `tools`.
 */
export function refuseRepeatedTools(tools: readonly Tool[], where: string): readonly Tool[] {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      throw new InvalidOptionsError({
        option: where,
        value: tool.name,
        expected: `each tool once (the tool "${tool.name}" is listed twice; remove one)`,
      });
    }
    seen.add(tool.name);
  }
  return tools;
}
