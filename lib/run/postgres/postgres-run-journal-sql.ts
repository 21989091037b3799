/**
 * The tables of `PostgresRunJournal`: a run is one row of `<table>_runs` (its length,
 * bytes and expiry; the row every append of the run locks) and its records, one row each
 * of `<table>`, keyed by (owner, run, seq). Records are text, exactly as the codec wrote
 * them.
 * @internal
 */
export function runJournalSchemaSql(tableName: string): string {
  return `CREATE TABLE IF NOT EXISTS "${tableName}_runs" (
  owner TEXT NOT NULL,
  run_id TEXT NOT NULL,
  length INTEGER NOT NULL,
  bytes BIGINT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (owner, run_id)
);
CREATE INDEX IF NOT EXISTS "${tableName}_expires" ON "${tableName}_runs" (expires_at);
CREATE TABLE IF NOT EXISTS "${tableName}" (
  owner TEXT NOT NULL,
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (owner, run_id, seq)
);`;
}

/**
 * The statements of `PostgresRunJournal`. An append is one statement: the run's row is
 * updated (or inserted) only when its live length is the expected one and the limits
 * hold, and the records are inserted only when it was; the row lock orders two writers
 * of one run, and the second finds the length changed. A run whose `expires_at` passed
 * counts as empty: its leftover records are overwritten (`ON CONFLICT`) or, past the new
 * length, never read. Parameters of both appends: owner, run id, expected length, the
 * records, the batch's bytes, the TTL in ms, maxRecords, maxRunBytes.
 * @internal
 */
export function runJournalStatements(tableName: string) {
  const runs = `"${tableName}_runs"`;
  const records = `"${tableName}"`;
  const insertRecords = `INSERT INTO ${records} (owner, run_id, seq, record)
    SELECT $1::text, $2::text, $3::int + t.i - 1, t.record
      FROM run, unnest($4::text[]) WITH ORDINALITY AS t(record, i)
    ON CONFLICT (owner, run_id, seq) DO UPDATE SET record = excluded.record`;
  const expiresAt = `now() + $6::bigint * interval '1 millisecond'`;
  return {
    // A run that is live and has the expected length.
    append: `WITH run AS (
      UPDATE ${runs} SET length = length + cardinality($4::text[]), bytes = bytes + $5::bigint,
        expires_at = ${expiresAt}
      WHERE owner = $1 AND run_id = $2 AND expires_at > now() AND length = $3::int
        AND length + cardinality($4::text[]) <= $7::int AND bytes + $5::bigint <= $8::bigint
      RETURNING length)
    ${insertRecords}`,
    // A new run (expected length 0): inserted, or taking the place of an expired one.
    create: `WITH run AS (
      INSERT INTO ${runs} AS u (owner, run_id, length, bytes, expires_at)
      SELECT $1::text, $2::text, cardinality($4::text[]), $5::bigint, ${expiresAt}
        WHERE $3::int = 0 AND cardinality($4::text[]) <= $7::int AND $5::bigint <= $8::bigint
      ON CONFLICT (owner, run_id) DO UPDATE SET length = excluded.length,
        bytes = excluded.bytes, expires_at = excluded.expires_at
        WHERE u.expires_at <= now()
      RETURNING length)
    ${insertRecords}`,
    live: `SELECT length, bytes::float8 AS bytes FROM ${runs}
      WHERE owner = $1 AND run_id = $2 AND expires_at > now()`,
    read: `SELECT r.record FROM ${runs} u
      JOIN ${records} r ON r.owner = u.owner AND r.run_id = u.run_id AND r.seq < u.length
      WHERE u.owner = $1 AND u.run_id = $2 AND u.expires_at > now() ORDER BY r.seq`,
    // The records at and after $3 (whose append it was, after a retry).
    tail: `SELECT r.record FROM ${runs} u
      JOIN ${records} r ON r.owner = u.owner AND r.run_id = u.run_id
        AND r.seq >= $3::int AND r.seq < u.length
      WHERE u.owner = $1 AND u.run_id = $2 AND u.expires_at > now() ORDER BY r.seq`,
    remove: `WITH gone AS (DELETE FROM ${runs} WHERE owner = $1 AND run_id = $2)
      DELETE FROM ${records} WHERE owner = $1 AND run_id = $2`,
    // Expired runs, a batch at a time; a run an append holds is skipped (it is being renewed).
    sweep: `WITH gone AS (
      DELETE FROM ${runs} WHERE (owner, run_id) IN (
        SELECT owner, run_id FROM ${runs} WHERE expires_at <= now()
          LIMIT $1::int FOR UPDATE SKIP LOCKED)
      RETURNING owner, run_id),
    records_gone AS (
      DELETE FROM ${records} r USING gone g WHERE r.owner = g.owner AND r.run_id = g.run_id)
    SELECT count(*)::int AS runs FROM gone`,
  };
}
