// Consumer check of `rx-advisors/memory/sqlite` (see root.ts).
import type Database from 'better-sqlite3';
import { MessageChatMemoryAdvisor, MessageWindowChatMemory } from 'rx-advisors';
import { SqliteChatMemoryRepository } from 'rx-advisors/memory/sqlite';

export function memoryAdvisor(database: Database.Database): MessageChatMemoryAdvisor {
  const repository = new SqliteChatMemoryRepository({ database });
  return new MessageChatMemoryAdvisor({
    chatMemory: new MessageWindowChatMemory({ maxMessages: 40, repository }),
  });
}
