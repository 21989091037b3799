import { merge, type Subscription } from 'rxjs';
import type { ToolIndex } from '../core/tool-index.js';
import { Rules, validateOptions } from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { McpToolSource } from './mcp-tool-source.js';

/**
 * Options of {@link reindexOnListChanged}.
 * @example
 * ```ts
 * import type { ToolIndex } from 'rx-advisors';
 * import type { McpToolSource, ReindexOnListChangedOptions } from 'rx-advisors/mcp';
 *
 * declare const index: ToolIndex;
 * declare const files: McpToolSource;
 * declare const crm: McpToolSource;
 * const options: ReindexOnListChangedOptions = { index, sources: [files, crm] };
 * ```
 */
export interface ReindexOnListChangedOptions {
  /** The index to invalidate: one with `invalidate()`, such as `embeddingToolIndex`. */
  index: ToolIndex;
  /** The MCP tool sources whose tools the index searches. */
  sources: McpToolSource | readonly McpToolSource[];
}

/**
 * Keeps a tool index in step with MCP servers: each time a source's tools go stale (the
 * server sent `notifications/tools/list_changed`, the connection was replaced, or
 * `refresh()` was called), the index is invalidated, so the next search compares the tools
 * the call offers (listed again) with what it had indexed: new and changed tools are
 * indexed, removed ones dropped. `keywordToolIndex` needs none of this (it reads the tools
 * at each search) and is refused. Unsubscribe from the result to stop.
 * @example
 * ```ts
 * import { embeddingToolIndex, toolSearch } from 'rx-advisors';
 * import { McpToolSource, reindexOnListChanged } from 'rx-advisors/mcp';
 * import type { EmbeddingModel } from 'rx-advisors/rag';
 *
 * declare const embeddingModel: EmbeddingModel;
 * const crm = new McpToolSource({ server: { url: 'http://localhost:3001/mcp' } });
 * const index = embeddingToolIndex({ embeddingModel });
 * const reindexing = reindexOnListChanged({ index, sources: crm });
 * const search = toolSearch({ index });
 * // … when the application stops:
 * reindexing.unsubscribe();
 * ```
 * @param options The index and the sources.
 * @returns The subscription to the sources' changes.
 */
export function reindexOnListChanged(options: ReindexOnListChangedOptions): Subscription {
  validateOptions(options, {
    index: Rules.required(Rules.func),
    sources: Rules.required(
      Rules.custom('an McpToolSource or an array of them', (value) =>
        (Array.isArray(value) ? (value as unknown[]) : [value]).every(
          (source) => source instanceof McpToolSource,
        ),
      ),
    ),
  });
  const { index } = options;
  if (typeof index.invalidate !== 'function') {
    throw new InvalidOptionsError({
      option: 'index',
      value: index.name || 'an index without invalidate()',
      expected:
        'an index with invalidate(), such as embeddingToolIndex (keywordToolIndex reads the tools at each search and needs no re-indexing)',
    });
  }
  const sources: readonly McpToolSource[] = Array.isArray(options.sources)
    ? options.sources
    : [options.sources as McpToolSource];
  return merge(...sources.map((source) => source.toolsChanged$)).subscribe(() => {
    try {
      index.invalidate?.();
    } catch {
      // A throwing invalidate() must not break the MCP client's notification handler; the
      // index stays as it was and is checked again by its next search.
    }
  });
}
