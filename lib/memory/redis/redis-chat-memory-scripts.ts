// The Lua scripts of RedisChatMemoryRepository. A conversation is one hash:
//   m = the messages (a JSON array of rows), v = its version.
// Versions come from one counter (never reused, even after a delete), so a
// check-and-set cannot be fooled by a conversation deleted and written again (ABA).
// The ids of stored conversations are a set. Every script is atomic on the server.

// The write both save scripts end with: delete on '', else a new version and the messages.
const WRITE = `
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[2], ARGV[1])
  return 1
end
local version = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], 'm', ARGV[2], 'v', version)
redis.call('SADD', KEYS[2], ARGV[1])
return 1`;

/** KEYS: conversation hash, ids set, version counter. ARGV: conversation id, messages JSON ('' deletes). */
export const SAVE_SCRIPT = WRITE;

/**
 * KEYS: as SAVE_SCRIPT. ARGV: conversation id, messages JSON ('' deletes), the version read
 * ('0' for none). Returns 1 when written, 0 when someone wrote in between.
 */
export const CHECK_AND_SAVE_SCRIPT = `
local current = redis.call('HGET', KEYS[1], 'v') or '0'
if current ~= ARGV[3] then return 0 end${WRITE}`;

/** KEYS: conversation hash, ids set. ARGV: conversation id. */
export const DELETE_SCRIPT = `
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
return 1`;
