import type BetterSqlite3 from 'better-sqlite3';
import { load as loadSqliteVec } from 'sqlite-vec';
import { VectorDimensionError } from '../../errors/vector-dimension-error.js';
import { VectorStoreError } from '../../errors/vector-store-error.js';
import type { Document } from '../document.js';
import { errorMessageOf } from '../../errors/error-details.js';
import { setUpSqlite } from '../../sqlite/set-up-sqlite.js';

/** A candidate of a search: a document's row, its id and its cosine distance. @internal */
export interface Candidate {
  readonly rowId: number;
  readonly id: string;
  readonly distance: number;
}

/** A stored document as read back. @internal */
export interface DocumentRow {
  readonly row_id: number;
  readonly id: string;
  readonly text: string;
  /** The metadata as JSON text; `null` when the stored value is not valid JSON(B). */
  readonly metadata: string | null;
}

/**
 * The two tables of one `SqliteVectorStore`: `<table>` (id, text, metadata as JSONB, and a
 * flag for all-zero vectors) and the sqlite-vec virtual table `<table>_vectors`
 * (`vec0`, cosine distance, the dimensions fixed when it is created), joined on the row id.
 * Creating them, writing and deleting documents, and the SQL a search runs.
 * @internal
 */
export class SqliteVectorTables {
  /** The vectors' length; `undefined` until the first add creates the vector table. */
  dimensions: number | undefined;
  /** Whether the vector table exists (it is created by the first add). */
  indexed: boolean;
  private readonly documents: string;
  private readonly vectors: string;
  private readonly vectorsName: string;
  private readonly statementCache = new Map<string, BetterSqlite3.Statement>();

  /**
   * Loads sqlite-vec into the database when it is not there yet, creates the document table
   * and reads the vector table's dimensions when it exists.
   * @param db The open database.
   * @param table The document table's name (checked by the store).
   * @param dimensions The dimensions the caller configured, if any.
   */
  constructor(
    private readonly db: BetterSqlite3.Database,
    table: string,
    dimensions: number | undefined,
  ) {
    this.documents = `"${table}"`;
    this.vectorsName = `${table}_vectors`;
    this.vectors = `"${this.vectorsName}"`;
    loadExtension(db, table);
    const stored = setUpSqlite(db, () => {
      db.exec(
        `CREATE TABLE IF NOT EXISTS ${this.documents} (
          row_id INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          text TEXT NOT NULL,
          metadata BLOB NOT NULL,
          zero_vector INTEGER NOT NULL
        )`,
      );
      return storedDimensions(db, this.vectorsName);
    });
    if (stored !== undefined && dimensions !== undefined && stored !== dimensions) {
      throw new VectorDimensionError({ expected: stored, actual: dimensions });
    }
    this.dimensions = stored ?? dimensions;
    this.indexed = stored !== undefined;
  }

  /**
   * Writes documents in one immediate transaction (replacing stored ids); creates the
   * vector table first when this is the first add.
   * @param documents The documents, checked.
   * @param vectors Their embeddings, checked against the dimensions.
   */
  write(documents: readonly Document[], vectors: readonly (readonly number[])[]): void {
    const upsert = this.statement(
      `INSERT INTO ${this.documents} (id, text, metadata, zero_vector) VALUES (?, ?, jsonb(?), ?)
       ON CONFLICT (id) DO UPDATE SET text = excluded.text, metadata = excluded.metadata,
         zero_vector = excluded.zero_vector
       RETURNING row_id`,
    );
    const dimensions = this.db
      .transaction(() => {
        // Checked again inside the write lock: another store (or process) may have created
        // the vector table since these vectors were embedded.
        this.refresh();
        const expected = this.dimensions ?? vectors[0]?.length ?? 0;
        for (const vector of vectors) {
          if (vector.length !== expected) {
            throw new VectorDimensionError({ expected, actual: vector.length });
          }
        }
        this.createVectorTable(expected);
        const removeVector = this.statement(`DELETE FROM ${this.vectors} WHERE rowid = ?`);
        const insertVector = this.statement(
          `INSERT INTO ${this.vectors} (rowid, embedding) VALUES (?, ?)`,
        );
        documents.forEach((document, i) => {
          const vector = vectors[i] ?? [];
          const zero = vector.every((x) => x === 0);
          const { row_id: rowId } = upsert.get(
            document.id,
            document.text,
            JSON.stringify(document.metadata),
            zero ? 1 : 0,
          ) as { row_id: number };
          removeVector.run(BigInt(rowId));
          // An all-zero vector has no direction (sqlite-vec gives it a NULL distance): it is
          // kept out of the index and scores 0, as in memory.
          if (!zero) insertVector.run(BigInt(rowId), Float32Array.from(vector));
        });
        return expected;
      })
      .immediate();
    this.dimensions = dimensions;
    this.indexed = true;
  }

  /** Reads the vector table's dimensions when another connection created it meanwhile. */
  refresh(): void {
    if (this.indexed) return;
    const stored = storedDimensions(this.db, this.vectorsName);
    if (stored === undefined) return;
    this.dimensions = stored;
    this.indexed = true;
  }

  /**
   * Deletes documents by id in one immediate transaction.
   * @param ids The ids.
   * @returns How many were stored.
   */
  remove(ids: readonly string[]): number {
    const find = this.statement(`SELECT row_id FROM ${this.documents} WHERE id = ?`);
    const removeDocument = this.statement(`DELETE FROM ${this.documents} WHERE row_id = ?`);
    const removeVector = !this.indexed
      ? undefined
      : this.statement(`DELETE FROM ${this.vectors} WHERE rowid = ?`);
    return this.db
      .transaction(() => {
        let removed = 0;
        for (const id of ids) {
          const row = find.get(id) as { row_id: number } | undefined;
          if (row === undefined) continue;
          removeVector?.run(BigInt(row.row_id));
          removeDocument.run(row.row_id);
          removed += 1;
        }
        return removed;
      })
      .immediate();
  }

  /**
   * The nearest vectors (sqlite-vec's exact KNN scan), nearest first.
   * @param query The query vector.
   * @param k How many at most (≤ 4096, sqlite-vec's limit).
   * @param where Extra constraints on `v.distance` and `v.rowid`, as SQL.
   * @param params Their parameters.
   * @returns The candidates.
   */
  nearest(
    query: Float32Array,
    k: number,
    where: string,
    params: readonly (string | number)[],
  ): Candidate[] {
    return this.statement(
      `WITH knn AS (
         SELECT v.rowid AS row_id, v.distance AS distance FROM ${this.vectors} v
         WHERE v.embedding MATCH ? AND k = ? ${where}
       )
       SELECT knn.row_id AS rowId, d.id AS id, knn.distance AS distance
       FROM knn JOIN ${this.documents} d ON d.row_id = knn.row_id
       ORDER BY knn.distance, d.id`,
    ).all(query, k, ...params) as Candidate[];
  }

  /**
   * Documents by id order, without vectors (zero vectors, or a zero query: every score 0).
   * @param where A condition on the document table, or `''`.
   * @param params Its parameters.
   * @param limit How many at most.
   * @returns Candidates at distance 1 (score 0).
   */
  byId(where: string, params: readonly (string | number)[], limit: number): Candidate[] {
    return this.statement(
      `SELECT row_id AS rowId, id, 1.0 AS distance FROM ${this.documents}
       ${where === '' ? '' : `WHERE ${where}`} ORDER BY id LIMIT ?`,
    ).all(...params, limit) as Candidate[];
  }

  /**
   * The stored rows of the given row ids.
   * @param rowIds The row ids.
   * @returns The rows, in no particular order.
   */
  rows(rowIds: readonly number[]): DocumentRow[] {
    return this.statement(
      `SELECT row_id, id, text,
         CASE WHEN json_valid(metadata, 9) THEN json(metadata) END AS metadata
       FROM ${this.documents}
       WHERE row_id IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(rowIds)) as DocumentRow[];
  }

  /** The document table's name, as quoted SQL, for filter subqueries. */
  get documentTable(): string {
    return this.documents;
  }

  private createVectorTable(dimensions: number): void {
    if (this.indexed) return;
    this.db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${this.vectors}
       USING vec0(embedding float[${dimensions}] distance_metric=cosine)`,
    );
  }

  /**
   * A prepared statement, kept by its SQL: searches with the same filter shape reuse it.
   * Bounded, so many distinct filters cannot grow it without end.
   */
  private statement(sql: string): BetterSqlite3.Statement {
    const known = this.statementCache.get(sql);
    if (known !== undefined) return known;
    const prepared = this.db.prepare(sql);
    if (this.statementCache.size >= MAX_CACHED_STATEMENTS) {
      const oldest = this.statementCache.keys().next().value;
      if (oldest !== undefined) this.statementCache.delete(oldest);
    }
    this.statementCache.set(sql, prepared);
    return prepared;
  }
}

const MAX_CACHED_STATEMENTS = 64;

function loadExtension(db: BetterSqlite3.Database, table: string): void {
  try {
    db.prepare('SELECT vec_version()').get();
    return; // already loaded by the application
  } catch {
    // not loaded yet
  }
  try {
    loadSqliteVec(db);
  } catch (error) {
    throw new VectorStoreError({
      operation: 'open',
      store: table,
      reason:
        `the sqlite-vec extension could not be loaded (${errorMessageOf(error)}). ` +
        'Install it next to better-sqlite3 (npm install sqlite-vec; its platform package ' +
        'provides the native extension) or load it into the Database yourself before.',
      cause: error,
    });
  }
}

function storedDimensions(db: BetterSqlite3.Database, name: string): number | undefined {
  const row = db
    .prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`)
    .get(name) as { sql: string } | undefined;
  if (row === undefined) return undefined;
  const match = /embedding\s+float\[(\d+)\]/.exec(row.sql);
  if (match?.[1] === undefined) {
    throw new VectorStoreError({
      operation: 'open',
      store: name,
      reason: `the table ${name} is not a vector table this store created (${row.sql}). Use another tableName.`,
    });
  }
  return Number(match[1]);
}
