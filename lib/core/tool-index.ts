import type { Observable } from 'rxjs';
import type { Tool } from './tool.js';

/**
 * Finds the tools that match a query among those a request offers: the index behind
 * `toolSearch`. A function `(query, tools, limit) => names` (an array, a Promise of one, or
 * an Observable whose first value is one: unsubscribing cancels the search). An index that
 * builds something from the tools (embeddings) also has `invalidate()`: it forgets what it
 * built, and the next search checks every tool again. `keywordToolIndex` reads the tools at
 * each search and needs none; `embeddingToolIndex` has one, and `reindexOnListChanged`
 * (`rx-advisors/mcp`) calls it when an MCP server's tool list changes.
 * @example
 * ```ts
 * import type { ToolIndex } from 'rx-advisors';
 * const byPrefix: ToolIndex = (query, tools, limit) =>
 *   tools.filter((t) => t.name.startsWith(query)).slice(0, limit).map((t) => t.name);
 * ```
 */
export interface ToolIndex {
  /**
   * @param query What the model looks for.
   * @param tools The tools to search (those the request offers, the search tool excluded).
   * @param limit How many names at most.
   * @returns The names of the best matches, best first.
   */
  (
    query: string,
    tools: readonly Tool[],
    limit: number,
  ): readonly string[] | PromiseLike<readonly string[]> | Observable<readonly string[]>;
  /**
   * Forgets what the index built from the tools it saw (the tool list changed under it);
   * the next search checks every offered tool again. Optional: a stateless index has none.
   */
  readonly invalidate?: () => void;
}
