import { createHash } from 'node:crypto';

/**
 * The append, atomic on the server. KEYS: the run's record list, its byte counter.
 * ARGV: the expected length, the TTL (ms), maxRecords, maxRunBytes, the batch's bytes,
 * then the records. Returns `{status, length, bytes}` as the run was before: status 0
 * written, 1 another length (conflict), 2 over maxRecords, 3 over maxRunBytes (nothing
 * written for 1–3). RPUSH goes in slices: Lua's unpack has a stack limit.
 * @internal
 */
export const APPEND_SCRIPT = `
local length = redis.call('LLEN', KEYS[1])
local bytes = tonumber(redis.call('GET', KEYS[2]) or '0')
if length ~= tonumber(ARGV[1]) then return {1, length, bytes} end
local n = #ARGV - 5
if length + n > tonumber(ARGV[3]) then return {2, length, bytes} end
if bytes + tonumber(ARGV[5]) > tonumber(ARGV[4]) then return {3, length, bytes} end
if n == 0 then return {0, length, bytes} end
for i = 6, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[1], unpack(ARGV, i, math.min(i + 999, #ARGV)))
end
redis.call('INCRBY', KEYS[2], ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return {0, length, bytes}`;

/** The SHA-1 Redis knows a script by. @internal */
export const APPEND_SHA = createHash('sha1').update(APPEND_SCRIPT).digest('hex');

/**
 * The EVALSHA of the append, and its EVAL for a server that does not have the script yet
 * (a restart, `SCRIPT FLUSH`): `NOSCRIPT` means nothing ran, so sending it again is safe.
 * @internal
 */
export function appendCommands(keys: readonly string[], args: readonly string[]) {
  const rest = [String(keys.length), ...keys, ...args];
  return { sha: ['EVALSHA', APPEND_SHA, ...rest], full: ['EVAL', APPEND_SCRIPT, ...rest] };
}

/** Whether a reply error is Redis's "no such script". @internal */
export const isNoScript = (error: unknown): boolean =>
  String((error as { message?: unknown } | null)?.message).startsWith('NOSCRIPT');
