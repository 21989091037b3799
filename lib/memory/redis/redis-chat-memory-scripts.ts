// The Lua scripts of RedisChatMemoryRepository. A conversation is two keys:
//   the hash KEYS[1]: v = its version, s = its leading system messages (a JSON array of
//     rows) and sc = how many there are;
//   the list KEYS[4]: every other message, one JSON row per element, oldest first.
// A conversation written before the list layout is one hash field m (a JSON array of every
// row): the scripts read it as it is (READ returns it), APPEND refuses it (-1: the
// repository rewrites it in the list layout with CHECK_AND_SAVE, then appends), and
// SAVE / CHECK_AND_SAVE replace it.
// Versions come from one counter (never reused, even after a delete), so a check-and-set
// cannot be fooled by a conversation deleted and written again (ABA). The ids of stored
// conversations are a set. Every script is atomic on the server.

// RPUSH in slices: Lua's unpack has a stack limit (a few thousand values).
const PUSH = `
local function push(key, from)
  for i = from, #ARGV, 1000 do
    redis.call('RPUSH', key, unpack(ARGV, i, math.min(i + 999, #ARGV)))
  end
end`;

// The write both save scripts end with. ARGV: id, systems JSON ('' for none), their count,
// then the other rows. Nothing at all deletes the conversation.
const WRITE = `
redis.call('DEL', KEYS[4])
if ARGV[2] == '' and #ARGV < 4 then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[2], ARGV[1])
  return 1
end
redis.call('HDEL', KEYS[1], 'm', 's', 'sc')
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 's', ARGV[2], 'sc', ARGV[3]) end
push(KEYS[4], 4)
redis.call('HSET', KEYS[1], 'v', redis.call('INCR', KEYS[3]))
redis.call('SADD', KEYS[2], ARGV[1])
return 1`;

/** KEYS: conversation hash, ids set, version counter, message list. ARGV: see WRITE. */
export const SAVE_SCRIPT = `${PUSH}${WRITE}`;

/**
 * KEYS: as SAVE_SCRIPT. ARGV: id, the version read ('0' for none), then as SAVE_SCRIPT.
 * Returns 1 when written, 0 when someone wrote in between.
 */
export const CHECK_AND_SAVE_SCRIPT = `${PUSH}
local current = redis.call('HGET', KEYS[1], 'v') or '0'
if current ~= table.remove(ARGV, 2) then return 0 end${WRITE}`;

/**
 * KEYS: as SAVE_SCRIPT. ARGV: id, keepLast ('' for no trim), the rows to add. Adds them at
 * the end; then, when the system messages and the list hold more than keepLast, drops the
 * oldest list rows so that the list starts at the first user message at or after the cut,
 * else at the first row that is not a tool result, else empties it: the rows from the
 * cut are read 16 at a time until a user message shows up. Returns 1, or -1 (and writes
 * nothing) for a conversation in the old one-field layout.
 */
export const APPEND_SCRIPT = `${PUSH}
if redis.call('HEXISTS', KEYS[1], 'm') == 1 then return -1 end
push(KEYS[4], 3)
if ARGV[2] ~= '' then
  local keep = tonumber(ARGV[2])
  local systems = tonumber(redis.call('HGET', KEYS[1], 'sc') or '0')
  local n = redis.call('LLEN', KEYS[4])
  if systems + n > keep then
    local start, fallback = nil, nil
    local i = n - math.max(0, keep - systems)
    while start == nil and i < n do
      local rows = redis.call('LRANGE', KEYS[4], i, i + 15)
      for j, row in ipairs(rows) do
        if string.find(row, '{"role":"user"', 1, true) == 1 then
          start = i + j - 1
          break
        end
        if fallback == nil and string.find(row, '{"role":"tool"', 1, true) ~= 1 then
          fallback = i + j - 1
        end
      end
      i = i + 16
    end
    start = start or fallback or n
    if start < n then
      redis.call('LTRIM', KEYS[4], start, -1)
    elseif systems > 0 then
      redis.call('DEL', KEYS[4])
    else
      redis.call('DEL', KEYS[4], KEYS[1])
      redis.call('SREM', KEYS[2], ARGV[1])
      return 1
    end
  end
end
redis.call('HSET', KEYS[1], 'v', redis.call('INCR', KEYS[3]))
redis.call('SADD', KEYS[2], ARGV[1])
return 1`;

/**
 * KEYS: conversation hash, message list. ARGV: how many of the newest list rows to return
 * ('' for all). Returns { old-layout JSON or '', systems JSON or '', version, rows }.
 */
export const READ_SCRIPT = `
local fields = redis.call('HMGET', KEYS[1], 'm', 's', 'v')
local rows = {}
if not fields[1] then
  if ARGV[1] == '' then rows = redis.call('LRANGE', KEYS[2], 0, -1)
  elseif tonumber(ARGV[1]) > 0 then rows = redis.call('LRANGE', KEYS[2], -tonumber(ARGV[1]), -1) end
end
return { fields[1] or '', fields[2] or '', fields[3] or '0', rows }`;

/** KEYS: conversation hash, ids set, message list. ARGV: conversation id. */
export const DELETE_SCRIPT = `
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('SREM', KEYS[2], ARGV[1])
return 1`;
