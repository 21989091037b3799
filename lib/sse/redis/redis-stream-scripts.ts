// The Lua scripts of RedisResumableStreamStore; each runs atomically on the server.
// A stream is two keys: a hash `meta` (encoder, state running|done|ended, last = the last
// event id, first = the oldest event id still kept, bytes = characters kept) and a Redis
// Stream `frames` whose entry ids are `<event id>-0`; `<last>-1` is the end marker
// (field `end`: done or ended), so event ids stay 1, 2, 3, … and a reader's cursor works
// for both. A third key, `alive`, lives `ttl` after the last reader or the creation: when
// it is gone while the stream runs, the stream has expired. Owners keep a sorted set of
// their stream ids (for maxStreamsPerOwner). A fourth key, `producer`, lives a lease (three
// heartbeats, 3 s to `ttl`) after the running instance last checked in: readers end a
// running stream whose producer is gone (its process died), so nobody waits for frames that
// never come. That end is marked `lost` and not published: there is no producer to stop,
// and a reader then treats the stream as gone (a restorer may rebuild it), not as ended.

/** Ends a running stream: marker, state, publish. Shared by the scripts below. */
const END_RUNNING = `
local function endRunning(meta, frames, channel, streamKey, reason)
  local state = redis.call('HGET', meta, 'state')
  if state ~= 'running' then return 0 end
  local last = redis.call('HGET', meta, 'last')
  redis.call('XADD', frames, last .. '-1', 'end', reason)
  redis.call('HSET', meta, 'state', 'ended')
  if reason ~= 'lost' then redis.call('PUBLISH', channel, streamKey) end
  return 1
end`;

/**
 * KEYS: meta, frames, alive, owner set, producer. ARGV: encoder, stream id, ttl ms, maxStreamsPerOwner,
 * now ms, channel, stream key, key prefix of this owner's streams, producer lease ms.
 * Returns 1, or 0 when the owner already keeps too many running streams.
 */
export const CREATE_SCRIPT = `${END_RUNNING}
endRunning(KEYS[1], KEYS[2], ARGV[6], ARGV[7], 'replaced')
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[5])
redis.call('ZREM', KEYS[4], ARGV[2])
local ids = redis.call('ZRANGE', KEYS[4], 0, -1)
local count = 0
local oldestDone = nil
for _, id in ipairs(ids) do
  local state = redis.call('HGET', ARGV[8] .. id .. ':meta', 'state')
  if state == false or state == 'ended' then
    redis.call('ZREM', KEYS[4], id)
  else
    count = count + 1
    if state == 'done' and oldestDone == nil then oldestDone = id end
  end
end
if count >= tonumber(ARGV[4]) then
  if oldestDone == nil then return 0 end
  local gone = ARGV[8] .. oldestDone
  redis.call('DEL', gone .. ':meta', gone .. ':frames', gone .. ':alive', gone .. ':producer')
  redis.call('ZREM', KEYS[4], oldestDone)
end
redis.call('HSET', KEYS[1], 'encoder', ARGV[1], 'state', 'running', 'last', 0, 'first', 1, 'bytes', 0)
redis.call('SET', KEYS[3], '1', 'PX', ARGV[3])
redis.call('SET', KEYS[5], '1', 'PX', ARGV[9])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[4], ARGV[5], ARGV[2])
redis.call('PEXPIRE', KEYS[4], ARGV[3])
return 1`;

/**
 * KEYS: meta, frames. ARGV: frame, maxBufferedFrames, maxBufferedBytes, ttl ms.
 * Returns the event id, or 0 when the stream does not run.
 */
export const APPEND_SCRIPT = `
if redis.call('HGET', KEYS[1], 'state') ~= 'running' then return 0 end
local id = redis.call('HINCRBY', KEYS[1], 'last', 1)
redis.call('XADD', KEYS[2], id .. '-0', 'f', ARGV[1])
local bytes = redis.call('HINCRBY', KEYS[1], 'bytes', #ARGV[1])
local first = tonumber(redis.call('HGET', KEYS[1], 'first'))
-- Bounded by count and size; the newest frame always stays, so a live reader misses nothing.
while first < id and (id - first + 1 > tonumber(ARGV[2]) or bytes > tonumber(ARGV[3])) do
  local oldest = redis.call('XRANGE', KEYS[2], first .. '-0', first .. '-0')[1]
  if oldest ~= nil then
    bytes = bytes - #oldest[2][2]
    redis.call('XDEL', KEYS[2], oldest[1])
  end
  first = first + 1
end
redis.call('HSET', KEYS[1], 'first', first, 'bytes', bytes)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return id`;

/** KEYS: meta, frames. ARGV: ttl ms. Marks a running stream done (marker `<last>-1`). */
export const COMPLETE_SCRIPT = `
if redis.call('HGET', KEYS[1], 'state') ~= 'running' then return 0 end
local last = redis.call('HGET', KEYS[1], 'last')
redis.call('XADD', KEYS[2], last .. '-1', 'end', 'done')
redis.call('HSET', KEYS[1], 'state', 'done')
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return 1`;

/**
 * KEYS: meta, frames, alive. ARGV: channel, stream key, ttl ms.
 * Ends a stream now. Returns 1 when there was one (running or finished), 0 otherwise.
 */
export const CANCEL_SCRIPT = `${END_RUNNING}
local state = redis.call('HGET', KEYS[1], 'state')
if state == false or state == 'ended' then return 0 end
if state == 'running' then
  endRunning(KEYS[1], KEYS[2], ARGV[1], ARGV[2], 'ended')
else
  redis.call('HSET', KEYS[1], 'state', 'ended')
  redis.call('PUBLISH', ARGV[1], ARGV[2])
end
redis.call('DEL', KEYS[3])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1`;

/**
 * KEYS: meta, frames, alive, producer. ARGV: channel, stream key, ttl ms, role ('reader' or
 * 'producer'), producer lease ms. A heartbeat, every few seconds: a reader keeps the stream
 * alive, the running instance keeps its producer key; each ends a running stream the other
 * side left (no reader for `ttl`: expired; no producer: its process is gone, marked `lost`).
 * Returns the state, '' when the stream is gone.
 */
export const TOUCH_SCRIPT = `${END_RUNNING}
local state = redis.call('HGET', KEYS[1], 'state')
if state == false then return '' end
local mine, theirs = KEYS[3], KEYS[4]
local life = ARGV[3]
if ARGV[4] == 'producer' then mine, theirs, life = KEYS[4], KEYS[3], ARGV[5] end
redis.call('SET', mine, '1', 'PX', life)
if ARGV[4] == 'reader' then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
if state == 'running' and redis.call('EXISTS', theirs) == 0 then
  local reason = 'expired'
  if ARGV[4] == 'reader' then reason = 'lost' end
  endRunning(KEYS[1], KEYS[2], ARGV[1], ARGV[2], reason)
  return 'ended'
end
return state`;
