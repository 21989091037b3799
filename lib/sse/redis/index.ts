// rx-advisors/sse/redis: resumable streams on Redis (the `redis` client, an optional peer),
// shared by every instance of a chat backend.
export {
  RedisResumableStreams,
  type RedisResumableStreamsOptions,
} from './redis-resumable-streams.js';
export { RedisResumableStreamStore } from './redis-resumable-stream-store.js';
export type { RedisResumableStreamStoreOptions } from './redis-resumable-stream-store-options.js';
export type { RedisStreamsClient, RedisStreamsConnection } from './redis-streams-client.js';
export { RedisUnavailableError } from '../../errors/redis-unavailable-error.js';
