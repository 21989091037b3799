import { defer, map, of, type Observable } from 'rxjs';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import { checkDocument, copyDocument as copy } from './check-document.js';
import type { Document, ScoredDocument } from './document.js';
import { embedChecked } from './embed-checked.js';
import type { EmbeddingModel } from './embedding-model.js';
import { matchesFilter } from './matches-filter.js';
import { resolveSearchRequest } from './resolve-search-request.js';
import type { SearchRequest, SearchResult, VectorStore } from './vector-store.js';

/**
 * Options of {@link InMemoryVectorStore}.
 * @example
 * ```ts partial
 * import { InMemoryVectorStore, type InMemoryVectorStoreOptions } from 'rx-advisors/rag';
 * const options: InMemoryVectorStoreOptions = { embeddingModel: model, maxTopK: 50 };
 * new InMemoryVectorStore(options);
 * ```
 */
export interface InMemoryVectorStoreOptions {
  /** Embeds the documents and the queries. */
  embeddingModel: EmbeddingModel;
  /** The vectors' length; default: fixed by the first `add`. */
  dimensions?: number;
  /** Largest `topK` a search may ask for; default 100. */
  maxTopK?: number;
  /** Longest filter expression, in characters; default 4096. */
  maxFilterLength?: number;
  /** Deepest filter nesting; default 32. */
  maxFilterDepth?: number;
  /** Default `'in-memory'`. */
  name?: string;
}

const IN_MEMORY_DEFAULTS = {
  maxTopK: 100,
  maxFilterLength: 4096,
  maxFilterDepth: 32,
  name: 'in-memory',
} as const;

const IN_MEMORY_RULES: OptionRules<InMemoryVectorStoreOptions> = {
  embeddingModel: Rules.required(
    Rules.custom(
      'an EmbeddingModel (an object with embed(texts))',
      (value) => typeof (value as { embed?: unknown } | null)?.embed === 'function',
    ),
  ),
  dimensions: Rules.integer(1),
  maxTopK: Rules.integer(1),
  maxFilterLength: Rules.integer(1),
  maxFilterDepth: Rules.integer(1, 1000),
  name: Rules.nonEmptyString,
};

interface Entry {
  readonly document: Document;
  readonly vector: readonly number[];
  readonly norm: number;
}

/**
 * The embedded default vector store: documents and vectors in a `Map`, exact cosine
 * similarity over all of them (linear in the store's size; see docs/rag.md for when to move
 * to SQLite or PostgreSQL). Nothing is persisted.
 *
 * @example
 * ```ts partial
 * import { lastValueFrom } from 'rxjs';
 * import { InMemoryVectorStore } from 'rx-advisors/rag';
 *
 * const store = new InMemoryVectorStore({ embeddingModel });
 * await lastValueFrom(store.add([{ id: '1', text: 'Refunds take 5 days.', metadata: { topic: 'billing' } }]));
 * const { documents } = await lastValueFrom(store.similaritySearch({ query: 'refund', filter: "topic == 'billing'" }));
 * ```
 */
export class InMemoryVectorStore implements VectorStore {
  readonly name: string;
  private readonly embeddingModel: EmbeddingModel;
  private readonly limits: { maxTopK: number; maxLength: number; maxDepth: number };
  private readonly entries = new Map<string, Entry>();
  private dimensions: number | undefined;

  /** @param options The embedding model, dimensions, limits and name. */
  constructor(options: InMemoryVectorStoreOptions) {
    const resolved = withDefaults(IN_MEMORY_DEFAULTS, validateOptions(options, IN_MEMORY_RULES));
    this.name = resolved.name;
    this.embeddingModel = resolved.embeddingModel;
    this.dimensions = resolved.dimensions;
    this.limits = {
      maxTopK: resolved.maxTopK,
      maxLength: resolved.maxFilterLength,
      maxDepth: resolved.maxFilterDepth,
    };
  }

  /** How many documents the store holds. */
  get size(): number {
    return this.entries.size;
  }

  add(documents: readonly Document[]): Observable<number> {
    return defer(() => {
      documents.forEach(checkDocument);
      if (documents.length === 0) return of(0);
      return embedChecked(
        this.embeddingModel,
        documents.map((d) => d.text),
        this.dimensions,
      ).pipe(
        map(({ embeddings }) => {
          // Every vector was checked before this point: the write is all or nothing.
          this.dimensions ??= embeddings[0]?.length;
          documents.forEach((document, i) => {
            const vector = embeddings[i] ?? [];
            this.entries.set(document.id, { document: copy(document), vector, norm: norm(vector) });
          });
          return documents.length;
        }),
      );
    });
  }

  delete(ids: readonly string[]): Observable<number> {
    return defer(() => of(ids.filter((id) => this.entries.delete(id)).length));
  }

  similaritySearch(request: SearchRequest): Observable<SearchResult> {
    return defer(() => {
      const { query, topK, similarityThreshold, filter } = resolveSearchRequest(
        request,
        this.limits,
      );
      return embedChecked(this.embeddingModel, [query], this.dimensions).pipe(
        map(({ embeddings, usage }) => {
          const vector = embeddings[0] ?? [];
          const queryNorm = norm(vector);
          // A bounded, sorted selection: O(n·k) compares, and only the winners are copied.
          const top: { entry: Entry; score: number }[] = [];
          for (const entry of this.entries.values()) {
            if (filter !== undefined && !matchesFilter(filter, entry.document.metadata)) continue;
            const score = cosine(vector, queryNorm, entry);
            if (score < similarityThreshold) continue;
            const last = top[top.length - 1];
            if (top.length === topK && last !== undefined && !ranksBefore(score, entry, last)) {
              continue;
            }
            let at = top.length;
            while (at > 0 && ranksBefore(score, entry, top[at - 1])) {
              at -= 1;
            }
            top.splice(at, 0, { entry, score });
            if (top.length > topK) top.pop();
          }
          const documents: ScoredDocument[] = top.map(({ entry, score }) => ({
            ...copy(entry.document),
            score,
          }));
          return { documents, usage };
        }),
      );
    });
  }
}

/** Higher score first; equal scores by id, so results are stable across stores (SQL: ORDER BY distance, id). */
function ranksBefore(score: number, entry: Entry, other: { entry: Entry; score: number }): boolean {
  if (score !== other.score) return score > other.score;
  return entry.document.id < other.entry.document.id;
}

function norm(vector: readonly number[]): number {
  let sum = 0;
  for (const x of vector) sum += x * x;
  return Math.sqrt(sum);
}

function cosine(query: readonly number[], queryNorm: number, entry: Entry): number {
  if (queryNorm === 0 || entry.norm === 0) return 0;
  let dot = 0;
  for (let i = 0; i < query.length; i++) dot += (query[i] ?? 0) * (entry.vector[i] ?? 0);
  return dot / (queryNorm * entry.norm);
}
