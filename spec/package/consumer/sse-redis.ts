// Consumer check of `rx-advisors/sse/redis` (see root.ts).
import { RedisResumableStreams, type RedisResumableStreamsOptions } from 'rx-advisors/sse/redis';

export function streamsOf(options: RedisResumableStreamsOptions): RedisResumableStreams {
  return new RedisResumableStreams(options);
}
