// Consumer check of `rx-advisors/sse/redis` (see root.ts).
import {
  RedisResumableStreams,
  RedisUnavailableError,
  type RedisResumableStreamsOptions,
} from 'rx-advisors/sse/redis';

export function streamsOf(options: RedisResumableStreamsOptions): RedisResumableStreams {
  return new RedisResumableStreams(options);
}

export const isOutage = (error: unknown): boolean =>
  RedisUnavailableError.isInstance(error) && error.waited >= 0 && error.command !== '';
