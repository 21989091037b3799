// Consumer check of `rx-advisors/run/redis` (see root.ts).
import type { RunJournal } from 'rx-advisors/run';
import { RedisRunJournal, type RedisRunCommandClient } from 'rx-advisors/run/redis';

export function runJournal(client: RedisRunCommandClient): RunJournal {
  return new RedisRunJournal({ client, keyPrefix: 'app:runs:', commandTimeoutMs: 2_000 });
}
