/**
 * The tables of `PostgresChatMemoryRepository` and its append function. The primary key
 * (conversation, position) is the index that keeps reading one conversation cheap: one
 * index range scan, already in order. The `ALTER TABLE` adds the media column to a table
 * created by an earlier version. The second table holds, per conversation, the ids of its
 * newest appends (see {@link appendIdsTableName}).
 * @internal
 */
export function postgresSchemaSql(tableName: string): string {
  return `${postgresTableSql(tableName)}\n${postgresAppendFunctionSql(tableName)}`;
}

function postgresTableSql(tableName: string): string {
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
ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS media JSONB;
CREATE TABLE IF NOT EXISTS "${appendIdsTableName(tableName)}" (
  conversation_id TEXT PRIMARY KEY,
  append_ids UUID[] NOT NULL
);`;
}

/**
 * A name derived from a table's: the table's name and `suffix`, within PostgreSQL's 63
 * characters (a longer table name is shortened and made unique by a hash of all of it, so
 * two tables never share a derived name).
 */
function derivedName(tableName: string, suffix: string): string {
  if (tableName.length + suffix.length <= 63) return `${tableName}${suffix}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < tableName.length; i++) {
    hash = Math.imul(hash ^ tableName.charCodeAt(i), 0x01000193) >>> 0;
  }
  const kept = tableName.slice(0, 63 - suffix.length - 9);
  return `${kept}_${hash.toString(16).padStart(8, '0')}${suffix}`;
}

/**
 * The name of the append function of a table: the table's name and `_append` (shortened
 * and hashed past 63 characters).
 * @internal
 */
export function appendFunctionName(tableName: string): string {
  return derivedName(tableName, '_append');
}

/**
 * The name of the table of append ids of a table: the table's name and `_append_ids`
 * (shortened and hashed past 63 characters). One row per conversation: the ids of its
 * newest appends, newest first, at most the repository's `appendIdsKept`. Kept apart
 * from the messages so that no trim, `update` or `saveAll` of the messages removes them.
 * @internal
 */
export function appendIdsTableName(tableName: string): string {
  return derivedName(tableName, '_append_ids');
}

/**
 * The body of `append` as one PL/pgSQL function, so that an append is one statement, one
 * round trip, its own transaction (autocommit): the conversation's advisory lock (the key
 * `update` and `saveAll` lock too), the rows after the last position, then, over the
 * window, the trim to the first user (else non-tool) row at or after the cut. Every step
 * is one primary-key lookup or range; each statement of a PL/pgSQL function sees what
 * committed before it, so what a writer that held the lock wrote is seen. The arithmetic
 * is `appendTrimFrom`'s (lib/memory/append-window.ts).
 *
 * `token` (unique per `append` call) is stored first in the conversation's row of the
 * append ids table, which keeps the newest `ids_kept`: when the connection drops before
 * the reply, the call is sent again with `again` and writes nothing if it finds its token
 * (the first attempt committed). Stored apart from the messages, the token outlives a
 * trim (its own or a later writer's) and an `update`; it is lost only after `ids_kept`
 * more appends to the conversation, or its deletion. The `DROP`s remove the functions of
 * the previous versions (no token; the token in the turn's last row, which a trim lost).
 */
function postgresAppendFunctionSql(tableName: string): string {
  const table = `"${tableName}"`;
  const ids = `"${appendIdsTableName(tableName)}"`;
  const name = `"${appendFunctionName(tableName)}"`;
  return `DROP FUNCTION IF EXISTS ${name}(TEXT, TEXT, TEXT[], TEXT[], TEXT[], TEXT[], TEXT[],
  TEXT[], BOOLEAN[], TEXT[], INTEGER);
DROP FUNCTION IF EXISTS ${name}(TEXT, BOOLEAN, TEXT, TEXT, TEXT[], TEXT[], TEXT[], TEXT[],
  TEXT[], TEXT[], BOOLEAN[], TEXT[], INTEGER);
CREATE OR REPLACE FUNCTION ${name}(token TEXT, again BOOLEAN,
  lock_key TEXT, conv TEXT,
  roles TEXT[], contents TEXT[], tool_calls TEXT[], reasonings TEXT[], tool_call_ids TEXT[],
  tool_names TEXT[], is_errors BOOLEAN[], medias TEXT[], keep_last INTEGER, ids_kept INTEGER)
RETURNS VOID LANGUAGE plpgsql AS $fn$
DECLARE
  last_pos INTEGER;
  end_pos INTEGER;
  first_pos INTEGER;
  systems INTEGER;
  start_pos INTEGER;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(lock_key, 0));
  IF again AND EXISTS (SELECT 1 FROM ${ids} WHERE conversation_id = conv
      AND token::uuid = ANY(append_ids)) THEN RETURN; END IF;
  INSERT INTO ${ids} AS i (conversation_id, append_ids) VALUES (conv, ARRAY[token::uuid])
    ON CONFLICT (conversation_id)
    DO UPDATE SET append_ids = (ARRAY[token::uuid] || i.append_ids)[1:ids_kept];
  -- The last position by a backward primary-key scan that stops at one row: a max(position)
  -- here was planned (generic plan, statistics of a young table) as an aggregate over
  -- every row of the conversation, an O(history) append.
  SELECT position INTO last_pos FROM ${table} WHERE conversation_id = conv
    ORDER BY position DESC LIMIT 1;
  last_pos := coalesce(last_pos, -1);
  INSERT INTO ${table} (conversation_id, position, role, content, tool_calls, reasoning,
      tool_call_id, tool_name, is_error, media)
    SELECT conv, last_pos + m.o::int, m.r, m.c, m.tc::jsonb, m.rs::jsonb, m.tci, m.tn, m.ie,
      m.md::jsonb
    FROM unnest(roles, contents, tool_calls, reasonings, tool_call_ids, tool_names, is_errors,
      medias) WITH ORDINALITY AS m(r, c, tc, rs, tci, tn, ie, md, o);
  IF keep_last IS NULL THEN RETURN; END IF;
  end_pos := last_pos + cardinality(roles);
  SELECT position INTO first_pos FROM ${table} WHERE conversation_id = conv AND role <> 'system'
    ORDER BY position LIMIT 1;
  SELECT count(*) INTO systems FROM ${table} WHERE conversation_id = conv AND position < first_pos;
  IF systems + end_pos - first_pos + 1 <= keep_last THEN RETURN; END IF;
  start_pos := coalesce(
    (SELECT position FROM ${table} WHERE conversation_id = conv
      AND position >= end_pos + 1 - greatest(0, keep_last - systems) AND role = 'user'
      ORDER BY position LIMIT 1),
    (SELECT position FROM ${table} WHERE conversation_id = conv
      AND position >= end_pos + 1 - greatest(0, keep_last - systems) AND role <> 'tool'
      ORDER BY position LIMIT 1),
    end_pos + 1);
  DELETE FROM ${table} WHERE conversation_id = conv AND position >= first_pos
    AND position < start_pos;
END
$fn$;`;
}

/** The columns of a `MessageRow`, as text. */
const COLUMNS = `role, content, tool_calls::text AS tool_calls, reasoning::text AS reasoning,
        tool_call_id, tool_name, is_error::int AS is_error, media::text AS media`;

/** @internal */
export function postgresStatements(tableName: string) {
  const table = `"${tableName}"`;
  return {
    ids: `SELECT DISTINCT conversation_id FROM ${table} ORDER BY conversation_id`,
    select: `SELECT ${COLUMNS} FROM ${table} WHERE conversation_id = $1 ORDER BY position`,
    remove: `DELETE FROM ${table} WHERE conversation_id = $1`,
    removeAppendIds: `DELETE FROM "${appendIdsTableName(tableName)}" WHERE conversation_id = $1`,
    // Whether the append ids table exists (a migration of an earlier version has none).
    hasAppendIds: `SELECT to_regclass($1) IS NOT NULL AS present`,
    insert: `INSERT INTO ${table} (conversation_id, position, role, content, tool_calls,
        reasoning, tool_call_id, tool_name, is_error, media)
      SELECT $1, m.p, m.r, m.c, m.tc::jsonb, m.rs::jsonb, m.tci, m.tn, m.ie, m.md::jsonb
      FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
        $8::text[], $9::boolean[], $10::text[]) AS m(p, r, c, tc, rs, tci, tn, ie, md)`,
    // Positions: saveAll writes 0…n-1 (a memory writes system messages first), append writes
    // after the last, and the trim deletes the oldest non-system rows: the non-system rows
    // are one run of consecutive positions. Each of these is one index lookup or range.
    bounds: `SELECT last, first, (SELECT count(*)::int FROM ${table}
          WHERE conversation_id = $1 AND position < coalesce(first, last + 1)) AS systems
      FROM (SELECT (SELECT position FROM ${table} WHERE conversation_id = $1
          ORDER BY position DESC LIMIT 1) AS last,
        (SELECT position FROM ${table} WHERE conversation_id = $1 AND role <> 'system'
          ORDER BY position LIMIT 1) AS first) AS b`,
    // The window's first message: a user message at or after the cut, else one that is not
    // a tool result, else none (the end).
    windowStart: `SELECT coalesce(
        (SELECT position FROM ${table} WHERE conversation_id = $1 AND position >= $2
          AND role = 'user' ORDER BY position LIMIT 1),
        (SELECT position FROM ${table} WHERE conversation_id = $1 AND position >= $2
          AND role <> 'tool' ORDER BY position LIMIT 1),
        $3::int) AS position`,
    dropRange: `DELETE FROM ${table} WHERE conversation_id = $1 AND position >= $2 AND position < $3`,
    // The whole append in one statement (postgresAppendFunctionSql): $1 the token, $2 again,
    // $14 how many append ids the conversation keeps.
    append: `SELECT "${appendFunctionName(tableName)}"($1, $2::boolean, $3, $4, $5::text[],
        $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::boolean[], $12::text[],
        $13::int, $14::int)`,
    // The leading system rows and the newest $2 after them, in order, from one snapshot.
    // The newest rows are read by a plain `ORDER BY position DESC LIMIT` (a backward scan
    // of the primary key that stops after $2 rows, whatever the statistics say; a lower
    // bound on `position` there let the planner sort the whole conversation) and then
    // bounded: the read costs the window, not the conversation.
    findLast: `WITH b AS (SELECT coalesce((SELECT position FROM ${table} WHERE conversation_id = $1
          AND role <> 'system' ORDER BY position LIMIT 1), 2147483647) AS first)
      SELECT * FROM (
        SELECT position, ${COLUMNS} FROM ${table}
          WHERE conversation_id = $1 AND position < (SELECT first FROM b)
        UNION ALL
        SELECT * FROM (SELECT position, ${COLUMNS} FROM ${table}
          WHERE conversation_id = $1 ORDER BY position DESC LIMIT $2) AS newest
          WHERE position >= (SELECT first FROM b)
      ) AS rows ORDER BY position`,
    // One lock per conversation and table, held until the transaction ends: writers of one
    // conversation queue up (in the order PostgreSQL grants the lock), others run freely.
    lock: `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`,
  } as const;
}
