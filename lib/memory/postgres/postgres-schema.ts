/**
 * The table of `PostgresChatMemoryRepository`. The primary key (conversation, position)
 * is the index that keeps reading one conversation cheap: one index range scan, already
 * in order. The `ALTER TABLE` adds the media column to a table created by an earlier
 * version.
 * @internal
 */
export function postgresSchemaSql(tableName: string): string {
  const table = `"${tableName}"`;
  return `CREATE TABLE IF NOT EXISTS ${table} (
  conversation_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
  content TEXT NOT NULL,
  tool_calls JSONB,
  reasoning JSONB,
  tool_call_id TEXT,
  tool_name TEXT,
  is_error BOOLEAN,
  media JSONB,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (conversation_id, position)
);
ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS media JSONB;`;
}

/** @internal */
export function postgresStatements(tableName: string) {
  const table = `"${tableName}"`;
  return {
    ids: `SELECT DISTINCT conversation_id FROM ${table} ORDER BY conversation_id`,
    select: `SELECT role, content, tool_calls::text AS tool_calls, reasoning::text AS reasoning,
        tool_call_id, tool_name, is_error::int AS is_error, media::text AS media
      FROM ${table} WHERE conversation_id = $1 ORDER BY position`,
    remove: `DELETE FROM ${table} WHERE conversation_id = $1`,
    insert: `INSERT INTO ${table} (conversation_id, position, role, content, tool_calls,
        reasoning, tool_call_id, tool_name, is_error, media)
      SELECT $1, m.p, m.r, m.c, m.tc::jsonb, m.rs::jsonb, m.tci, m.tn, m.ie, m.md::jsonb
      FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
        $8::text[], $9::boolean[], $10::text[]) AS m(p, r, c, tc, rs, tci, tn, ie, md)`,
    // One lock per conversation and table, held until the transaction ends: writers of one
    // conversation queue up (in the order PostgreSQL grants the lock), others run freely.
    lock: `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`,
  } as const;
}
