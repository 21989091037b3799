import { concat, defer, EMPTY, ignoreElements, map, tap, type Observable } from 'rxjs';
import type { Tool } from '../core/tool.js';
import type { ToolIndex } from '../core/tool-index.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { Document } from './document.js';
import type { EmbeddingModel } from './embedding-model.js';
import { InMemoryVectorStore } from './in-memory-vector-store.js';
import type { VectorStore } from './vector-store.js';

/**
 * Options of {@link embeddingToolIndex}: an embedding model (the tools then live in an
 * `InMemoryVectorStore`), or a vector store of its own that embeds with its model.
 * @example
 * ```ts
 * import type { EmbeddingToolIndexOptions } from 'rx-advisors';
 * import type { EmbeddingModel } from 'rx-advisors/rag';
 *
 * declare const embeddingModel: EmbeddingModel;
 * const options: EmbeddingToolIndexOptions = { embeddingModel, similarityThreshold: 0.2 };
 * ```
 */
export interface EmbeddingToolIndexOptions {
  /** Embeds the tools and the queries; the vectors are kept in memory. */
  embeddingModel?: EmbeddingModel;
  /** Where the tools' vectors live instead (a store of their own: ids are tool names). */
  store?: VectorStore;
  /** Lowest cosine similarity a tool must reach to be found; default: none. */
  similarityThreshold?: number;
  /**
   * Most tools one search asks the store for (those not offered to the call are dropped
   * from what it returns); default 100, the `InMemoryVectorStore` default `maxTopK`.
   */
  maxTopK?: number;
}

const RULES: OptionRules<EmbeddingToolIndexOptions> = {
  embeddingModel: Rules.custom(
    'an EmbeddingModel (an object with embed(texts))',
    (value) => typeof (value as { embed?: unknown } | null)?.embed === 'function',
  ),
  store: Rules.custom('a VectorStore (an object with add, delete and similaritySearch)', (value) =>
    ['add', 'delete', 'similaritySearch'].every(
      (method) => typeof (value as Record<string, unknown> | null)?.[method] === 'function',
    ),
  ),
  similarityThreshold: Rules.number(-1, 1),
  maxTopK: Rules.integer(1),
};

/**
 * A {@link ToolIndex} over embeddings, through the vector contract: each tool's name and
 * description are embedded once and kept in a vector store (its id: the tool's name); a
 * search embeds the query and returns the nearest tools the request offers. A tool whose
 * name the index has not seen is embedded at the next search. `invalidate()` (called on an
 * MCP `list_changed` by `reindexOnListChanged` of `rx-advisors/mcp`) makes the next search
 * compare every offered tool with what it embedded: a changed description is embedded
 * again, a tool no longer offered is deleted from the store. Searches are Observables:
 * unsubscribing cancels the embedding requests. An embedding failure fails the search, so
 * the model sees the search tool's error result.
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { embeddingToolIndex, toolSearch } from 'rx-advisors';
 * import { OpenAiEmbeddingModel } from 'rx-advisors/openai';
 *
 * const index = embeddingToolIndex({
 *   embeddingModel: new OpenAiEmbeddingModel({ client: new OpenAI(), model: 'text-embedding-3-small' }),
 * });
 * const search = toolSearch({ index, maxResults: 5 });
 * ```
 * @param options The embedding model or the store, the threshold, the search size.
 * @returns The index, with `invalidate()`.
 */
export function embeddingToolIndex(options: EmbeddingToolIndexOptions): ToolIndex {
  const resolved = withDefaults({ maxTopK: 100 }, validateOptions(options, RULES));
  const { embeddingModel, store, similarityThreshold, maxTopK } = resolved;
  if ((embeddingModel === undefined) === (store === undefined)) {
    throw new InvalidOptionsError({
      option: 'EmbeddingToolIndexOptions',
      value: options,
      expected: 'either embeddingModel (the vectors kept in memory) or store, not both',
    });
  }
  const embedded = new EmbeddedTools(
    store ?? new InMemoryVectorStore({ embeddingModel: embeddingModel!, maxTopK }),
    similarityThreshold,
    maxTopK,
  );
  const search = (query: string, tools: readonly Tool[], limit: number) =>
    embedded.search(query, tools, limit);
  return Object.assign(search, { invalidate: () => embedded.invalidate() });
}

/** What one index embedded: tool name → the text embedded for it. */
class EmbeddedTools {
  private readonly indexed = new Map<string, string>();
  /** Set at first and by `invalidate()`: the next search compares every tool. */
  private checkAll = true;

  constructor(
    private readonly store: VectorStore,
    private readonly similarityThreshold: number | undefined,
    private readonly maxTopK: number,
  ) {}

  invalidate(): void {
    this.checkAll = true;
  }

  search(query: string, tools: readonly Tool[], limit: number): Observable<readonly string[]> {
    return defer(() => {
      const offered = new Set<string>();
      let unseen = false;
      for (const tool of tools) {
        offered.add(tool.name);
        if (!this.indexed.has(tool.name)) unseen = true;
      }
      const sync$ = this.checkAll || unseen ? this.sync(tools, offered) : EMPTY;
      const found$ = defer(() => {
        // Indexed tools this call does not offer may rank first: ask for that many more.
        const others = Math.max(0, this.indexed.size - offered.size);
        const request = { query, topK: Math.min(limit + others, this.maxTopK) };
        const { similarityThreshold } = this;
        return this.store.similaritySearch(
          similarityThreshold === undefined ? request : { ...request, similarityThreshold },
        );
      });
      return concat(sync$, found$).pipe(
        map(({ documents }) =>
          documents
            .map((document) => document.id)
            .filter((name) => offered.has(name))
            .slice(0, limit),
        ),
      );
    });
  }

  /**
   * Embeds what the store lacks: unseen tools, or (after an invalidation) every tool whose
   * text changed, and deletes the tools no longer offered. Recorded as each write succeeds.
   */
  private sync(tools: readonly Tool[], offered: ReadonlySet<string>): Observable<never> {
    const all = this.checkAll;
    this.checkAll = false;
    const fresh: Document[] = [];
    for (const tool of tools) {
      const text = textOf(tool);
      const known = this.indexed.get(tool.name);
      if (known === undefined || (all && known !== text)) {
        fresh.push({ id: tool.name, text, metadata: { tool: tool.name } });
      }
    }
    const gone = all ? [...this.indexed.keys()].filter((name) => !offered.has(name)) : [];
    const deleted$ =
      gone.length === 0
        ? EMPTY
        : this.store.delete(gone).pipe(tap(() => gone.forEach((n) => this.indexed.delete(n))));
    const added$ =
      fresh.length === 0
        ? EMPTY
        : this.store
            .add(fresh)
            .pipe(tap(() => fresh.forEach((d) => this.indexed.set(d.id, d.text))));
    return concat(deleted$, added$).pipe(
      ignoreElements(),
      tap({
        // Not all written: the next search checks everything again.
        error: () => {
          this.checkAll ||= all;
        },
        unsubscribe: () => {
          this.checkAll ||= all;
        },
      }),
    );
  }
}

/** What is embedded for a tool: its name (often telling) and its description. */
function textOf(tool: Tool): string {
  return `${tool.name}: ${tool.description}`;
}
