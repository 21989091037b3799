// rx-advisors/memory/postgres: chat memory in PostgreSQL (`pg`, an optional peer).
// Only this entry point touches pg, and only its types: the application creates the Pool.
export {
  PostgresChatMemoryRepository,
  type PostgresChatMemoryRepositoryOptions,
} from './postgres-chat-memory-repository.js';
