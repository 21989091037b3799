// Consumer check of `rx-advisors/memory/postgres` (see root.ts).
import type { ChatMemoryRepository } from 'rx-advisors';
import {
  PostgresChatMemoryRepository,
  type PostgresChatMemoryRepositoryOptions,
} from 'rx-advisors/memory/postgres';

export function repositoryOf(options: PostgresChatMemoryRepositoryOptions): ChatMemoryRepository {
  return new PostgresChatMemoryRepository(options);
}
