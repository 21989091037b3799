import type { Tool } from '../core/tool.js';

/**
 * Where `prompt().toolNames(...)` finds tools by name; a `ToolRegistry` is one.
 *
 * @example
 * ```ts
 * import type { ToolLookup } from 'rx-advisors';
 * const lookup: ToolLookup = { get: (name) => (name === 'getTime' ? getTime : undefined) };
 * ```
 */
export interface ToolLookup {
  /**
   * @param name A tool name.
   * @returns The tool, or `undefined` when there is none of that name.
   */
  get(name: string): Tool | undefined;
}
