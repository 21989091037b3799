import type { SqlFilter } from './sqlite-filter.js';
import type { Candidate, SqliteVectorTables } from './sqlite-vector-tables.js';

/** sqlite-vec's largest `k` in one KNN query. */
export const KNN_LIMIT = 4096;

/** sqlite-vec computes in float32; the SQL bound on the distance is loose, the score check exact. */
const SLACK = 1e-6;

/**
 * The `topK` nearest documents that pass the filter and the threshold, ranked as every
 * store ranks them: by score (`1 - cosine distance`), equal scores by id.
 *
 * How: one sqlite-vec KNN query with the filter pushed into it as a row-id set
 * (`rowid IN (SELECT row_id FROM docs WHERE <filter>)`), so a filter that excludes most
 * documents still yields `topK` matches when they exist, in one scan. It asks for
 * `topK + 1` rows: when the last two have the same distance, the documents tied at the
 * boundary are fetched (all of them, by id) so that ties are broken by id, not by
 * storage order. Documents with an all-zero vector are not in the index; they score 0
 * and are merged in by id when 0 passes the threshold. A zero query scores 0 everywhere.
 *
 * @internal
 * @param tables The store's tables.
 * @param vector The query embedding (checked).
 * @param request `topK`, the threshold and the translated filter.
 * @returns The winners, best first, at most `topK`.
 */
export function nearestDocuments(
  tables: SqliteVectorTables,
  vector: readonly number[],
  request: { topK: number; similarityThreshold: number; filter: SqlFilter | undefined },
): Candidate[] {
  const { topK, similarityThreshold: threshold, filter } = request;
  const filterSql = filter?.sql ?? '';
  const filterParams = filter?.params ?? [];
  const zeroPasses = threshold <= 0;
  if (vector.every((x) => x === 0)) {
    return zeroPasses ? tables.byId(filterSql, filterParams, topK) : [];
  }
  const candidates: Candidate[] = [];
  if (tables.indexed) {
    const query = Float32Array.from(vector);
    const inFilter =
      filter === undefined
        ? ''
        : `AND v.rowid IN (SELECT row_id FROM ${tables.documentTable} WHERE ${filterSql})`;
    const bounded = threshold > -1;
    const nearest = tables.nearest(
      query,
      topK + 1,
      `${bounded ? 'AND v.distance <= ?' : ''} ${inFilter}`,
      bounded ? [1 - threshold + SLACK, ...filterParams] : filterParams,
    );
    candidates.push(...nearest);
    const last = nearest[topK - 1];
    if (last !== undefined && nearest[topK]?.distance === last.distance) {
      const below = nearest.filter((c) => c.distance < last.distance).length;
      candidates.push(...tiedAt(tables, query, last.distance, topK - below, filter));
    }
  }
  if (zeroPasses) {
    const zeroWhere = filter === undefined ? 'zero_vector = 1' : `zero_vector = 1 AND ${filterSql}`;
    candidates.push(...tables.byId(zeroWhere, filterParams, topK));
  }
  return rank(candidates, threshold, topK);
}

/** The first `needed` documents (by id) at exactly `distance`, the filter applied. */
function tiedAt(
  tables: SqliteVectorTables,
  query: Float32Array,
  distance: number,
  needed: number,
  filter: SqlFilter | undefined,
): Candidate[] {
  const params = filter?.params ?? [];
  const and = filter === undefined ? '' : `AND ${filter.sql}`;
  const docs = tables.documentTable;
  const tie = 'AND v.distance >= ? AND v.distance <= ?';
  const all = tables.nearest(
    query,
    KNN_LIMIT,
    `${tie} ${filter === undefined ? '' : `AND v.rowid IN (SELECT row_id FROM ${docs} WHERE ${filter.sql})`}`,
    [distance, distance, ...params],
  );
  // Fewer than the KNN limit minus what may precede them: every tie is here.
  if (all.length + needed < KNN_LIMIT) return all;
  // More ties than one KNN query returns (thousands of duplicates): walk the documents in
  // id order, a KNN-limit page at a time, until enough ties are found.
  const found: Candidate[] = [];
  let after = '';
  const page = `AND v.rowid IN (SELECT row_id FROM ${docs} WHERE id > ? ${and} ORDER BY id LIMIT ${KNN_LIMIT})`;
  for (;;) {
    const ids = tables.byId(`id > ? ${and}`, [after, ...params], KNN_LIMIT);
    const last = ids[ids.length - 1];
    if (last === undefined) return found;
    found.push(
      ...tables.nearest(query, KNN_LIMIT, `${tie} ${page}`, [distance, distance, after, ...params]),
    );
    if (found.length >= needed || ids.length < KNN_LIMIT) return found;
    after = last.id;
  }
}

/** Deduplicated, threshold applied, best first (equal distances by id), at most `topK`. */
function rank(candidates: readonly Candidate[], threshold: number, topK: number): Candidate[] {
  const seen = new Set<number>();
  const unique = candidates.filter((c) => {
    if (seen.has(c.rowId) || 1 - c.distance < threshold) return false;
    seen.add(c.rowId);
    return true;
  });
  unique.sort((a, b) =>
    a.distance !== b.distance ? a.distance - b.distance : a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  return unique.slice(0, topK);
}
