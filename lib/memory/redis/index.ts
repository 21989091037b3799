// rx-advisors/memory/redis: chat memory in Redis (the `redis` client, an optional peer).
// Only this entry point talks to Redis, through the client the application passes in.
export {
  RedisChatMemoryRepository,
  type RedisChatMemoryRepositoryOptions,
} from './redis-chat-memory-repository.js';
export type { RedisCommandClient } from './redis-command-client.js';
