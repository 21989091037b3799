// rx-advisors/run/redis: the run journal in Redis (the `redis` client, an optional peer).
// Only this entry point talks to Redis, through the client the application passes in.
export { RedisRunJournal } from './redis-run-journal.js';
export type { RedisRunCommandClient, RedisRunJournalOptions } from './redis-run-journal-options.js';
