import type BetterSqlite3 from 'better-sqlite3';
import { defer, map, of, type Observable } from 'rxjs';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
import { isSqliteDatabase } from '../../sqlite/is-sqlite-database.js';
import { VectorDimensionError } from '../../errors/vector-dimension-error.js';
import { VectorStoreError, type VectorStoreOperation } from '../../errors/vector-store-error.js';
import { checkDocument, isMetadataValue } from '../check-document.js';
import type { Document, MetadataValue, ScoredDocument } from '../document.js';
import { embedChecked } from '../embed-checked.js';
import type { EmbeddingModel } from '../embedding-model.js';
import { resolveSearchRequest } from '../resolve-search-request.js';
import type { SearchRequest, SearchResult, VectorStore } from '../vector-store.js';
import { toSqlFilter } from './sqlite-filter.js';
import { KNN_LIMIT, nearestDocuments } from './sqlite-nearest.js';
import { sqliteVectorFailure } from './sqlite-vector-failure.js';
import { SqliteVectorTables, type DocumentRow } from './sqlite-vector-tables.js';

/**
 * Options of {@link SqliteVectorStore}.
 * @example
 * ```ts partial
 * import Database from 'better-sqlite3';
 * import type { SqliteVectorStoreOptions } from 'rx-advisors/vector/sqlite';
 * const options: SqliteVectorStoreOptions = {
 *   database: new Database('app.db'),
 *   embeddingModel,
 *   tableName: 'faq_documents',
 * };
 * ```
 */
export interface SqliteVectorStoreOptions {
  /**
   * An open better-sqlite3 database (the one the chat memory uses, or another). The
   * application opens and closes it; the store loads sqlite-vec into it unless it is there.
   */
  database: BetterSqlite3.Database;
  /** Embeds the documents and the queries. */
  embeddingModel: EmbeddingModel;
  /** The vectors' length; default: fixed by the first `add` (then stored with the table). */
  dimensions?: number;
  /** The document table; the vectors go to `<tableName>_vectors`. Default `rx_advisors_vector_store`. */
  tableName?: string;
  /** Largest `topK` a search may ask for; default 100, at most 4095 (sqlite-vec's KNN limit). */
  maxTopK?: number;
  /** Longest filter expression, in characters; default 4096. */
  maxFilterLength?: number;
  /** Deepest filter nesting; default 32. */
  maxFilterDepth?: number;
  /** Default `'sqlite'`. */
  name?: string;
}

const SQLITE_DEFAULTS = {
  tableName: 'rx_advisors_vector_store',
  maxTopK: 100,
  maxFilterLength: 4096,
  maxFilterDepth: 32,
  name: 'sqlite',
} as const;

const SQLITE_RULES: OptionRules<SqliteVectorStoreOptions> = {
  database: Rules.required(
    Rules.custom(
      "an open better-sqlite3 Database (import Database from 'better-sqlite3'; new Database('app.db'))",
      (value) => isSqliteDatabase(value, 'loadExtension'),
    ),
  ),
  embeddingModel: Rules.required(
    Rules.custom(
      'an EmbeddingModel (an object with embed(texts))',
      (value) => typeof (value as { embed?: unknown } | null)?.embed === 'function',
    ),
  ),
  dimensions: Rules.integer(1, 8192),
  tableName: Rules.sqlIdentifier(55),
  maxTopK: Rules.integer(1, KNN_LIMIT - 1),
  maxFilterLength: Rules.integer(1),
  maxFilterDepth: Rules.integer(1, 1000),
  name: Rules.nonEmptyString,
};

/**
 * A persistent {@link VectorStore} in SQLite: documents in a table (metadata as JSONB),
 * vectors in a sqlite-vec `vec0` virtual table (cosine distance, exact search), both in
 * the better-sqlite3 database the application passes, so chat memory and documents can
 * share one file. Filters are translated to SQL and applied inside the vector query, so
 * a search with a filter returns `topK` matches whenever that many exist. Scores are
 * cosine similarity, as in memory; the data survives a restart.
 *
 * better-sqlite3 is synchronous: the embedding call is the asynchronous (and cancellable)
 * part; the SQL runs to its end once the embeddings arrive. An `add` writes all its
 * documents in one transaction, or none. Failures of the database reject with a
 * `VectorStoreError` carrying the SQLite code.
 *
 * @example
 * ```ts partial
 * import Database from 'better-sqlite3';
 * import { lastValueFrom } from 'rxjs';
 * import { SqliteVectorStore } from 'rx-advisors/vector/sqlite';
 *
 * const database = new Database('app.db');
 * const store = new SqliteVectorStore({ database, embeddingModel });
 * await lastValueFrom(store.add([{ id: 'faq-1', text: 'Refunds take 5 days.', metadata: { topic: 'billing' } }]));
 * const { documents } = await lastValueFrom(
 *   store.similaritySearch({ query: 'refund', topK: 3, filter: "topic == 'billing'" }),
 * );
 * ```
 */
export class SqliteVectorStore implements VectorStore {
  readonly name: string;
  /** The document table (the vectors are in `<tableName>_vectors`). */
  readonly tableName: string;
  private readonly database: BetterSqlite3.Database;
  private readonly embeddingModel: EmbeddingModel;
  private readonly configuredDimensions: number | undefined;
  private readonly limits: { maxTopK: number; maxLength: number; maxDepth: number };
  private opened: SqliteVectorTables | undefined;

  /** @param options The database, the embedding model, dimensions, table name and limits. */
  constructor(options: SqliteVectorStoreOptions) {
    const resolved = withDefaults(SQLITE_DEFAULTS, validateOptions(options, SQLITE_RULES));
    this.name = resolved.name;
    this.tableName = resolved.tableName;
    this.database = resolved.database;
    this.embeddingModel = resolved.embeddingModel;
    this.configuredDimensions = resolved.dimensions;
    this.limits = {
      maxTopK: resolved.maxTopK,
      maxLength: resolved.maxFilterLength,
      maxDepth: resolved.maxFilterDepth,
    };
  }

  add(documents: readonly Document[]): Observable<number> {
    return defer(() => {
      if (!isList(documents)) {
        throw new InvalidOptionsError({
          option: 'documents',
          value: documents,
          expected: 'an array of Documents',
        });
      }
      documents.forEach(checkDocument);
      if (documents.length === 0) return of(0);
      const tables = this.run('add', () => this.tables());
      return embedChecked(
        this.embeddingModel,
        documents.map((d) => d.text),
        tables.dimensions,
      ).pipe(
        map(({ embeddings }) =>
          this.run('add', () => {
            // Every vector was checked before this point; the transaction writes all or none.
            tables.write(documents, embeddings);
            return documents.length;
          }),
        ),
      );
    });
  }

  delete(ids: readonly string[]): Observable<number> {
    return defer(() => {
      if (!isList(ids) || !ids.every((id) => typeof id === 'string')) {
        throw new InvalidOptionsError({
          option: 'ids',
          value: ids,
          expected: 'an array of strings',
        });
      }
      return of(ids.length === 0 ? 0 : this.run('delete', () => this.tables().remove(ids)));
    });
  }

  similaritySearch(request: SearchRequest): Observable<SearchResult> {
    return defer(() => {
      const { query, topK, similarityThreshold, filter } = resolveSearchRequest(
        request,
        this.limits,
      );
      const sqlFilter = filter === undefined ? undefined : toSqlFilter(filter, 'metadata');
      const tables = this.run('search', () => this.tables());
      return embedChecked(this.embeddingModel, [query], tables.dimensions).pipe(
        map(({ embeddings, usage }) =>
          this.run('search', () => {
            const vector = embeddings[0] ?? [];
            tables.refresh();
            if (tables.dimensions !== undefined && vector.length !== tables.dimensions) {
              throw new VectorDimensionError({
                expected: tables.dimensions,
                actual: vector.length,
              });
            }
            const winners = nearestDocuments(tables, vector, {
              topK,
              similarityThreshold,
              filter: sqlFilter,
            });
            const rows = new Map(
              tables.rows(winners.map((w) => w.rowId)).map((r) => [r.row_id, r]),
            );
            const documents = winners.map(({ rowId, distance }): ScoredDocument => {
              const row = rows.get(rowId);
              if (row === undefined) throw this.damaged('search', `row ${rowId} vanished`);
              return { ...this.toDocument(row), score: 1 - distance };
            });
            return { documents, usage };
          }),
        ),
      );
    });
  }

  private tables(): SqliteVectorTables {
    // Opened on first use; a failed attempt (locked, read-only) is tried again next time.
    this.opened ??= new SqliteVectorTables(
      this.database,
      this.tableName,
      this.configuredDimensions,
    );
    return this.opened;
  }

  private run<T>(operation: VectorStoreOperation, work: () => T): T {
    try {
      if (!this.database.open) {
        throw new VectorStoreError({
          operation,
          store: this.name,
          reason: `the better-sqlite3 database ${JSON.stringify(this.database.name)} is closed. Give the store an open Database.`,
        });
      }
      return work();
    } catch (error) {
      throw sqliteVectorFailure(error, operation, this.name, this.database.name);
    }
  }

  private toDocument(row: DocumentRow): Document {
    let metadata: unknown;
    try {
      metadata = row.metadata === null ? undefined : JSON.parse(row.metadata);
    } catch {
      metadata = undefined;
    }
    if (
      typeof metadata !== 'object' ||
      metadata === null ||
      Array.isArray(metadata) ||
      !Object.values(metadata).every(isMetadataValue)
    ) {
      throw this.damaged(
        'search',
        `the metadata of document ${JSON.stringify(row.id)} is not a JSON object of scalars`,
      );
    }
    return { id: row.id, text: row.text, metadata: metadata as Record<string, MetadataValue> };
  }

  private damaged(operation: VectorStoreOperation, problem: string): VectorStoreError {
    return new VectorStoreError({
      operation,
      store: this.name,
      reason: `table ${this.tableName} is damaged: ${problem}. Fix or delete the row, or add the document again.`,
    });
  }
}

const isList = (value: unknown): value is readonly unknown[] => Array.isArray(value);
