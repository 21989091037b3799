// rx-advisors/memory/sqlite: chat memory in SQLite (better-sqlite3, an optional peer).
// Only this entry point touches better-sqlite3, and only its types: the application
// opens the Database and passes it in.
export {
  SqliteChatMemoryRepository,
  type SqliteChatMemoryRepositoryOptions,
} from './sqlite-chat-memory-repository.js';
