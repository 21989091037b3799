// Consumer check of `rx-advisors/memory/redis` (see root.ts).
import type { ChatMemoryRepository } from 'rx-advisors';
import {
  RedisChatMemoryRepository,
  type RedisChatMemoryRepositoryOptions,
} from 'rx-advisors/memory/redis';

export function repositoryOf(options: RedisChatMemoryRepositoryOptions): ChatMemoryRepository {
  return new RedisChatMemoryRepository(options);
}
