// Instance A of the Redis restore spec, in its own process so the spec can SIGKILL it
// mid-run: starts a durable Redis instance and prints its URL.
//   tsx durable-instance-process.ts <redis url> <key prefix> <journal file> <delta interval ms>
import { startDurableRedisInstance } from './durable-redis-instance';

const [redisUrl, keyPrefix, journalPath, interval] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];

startDurableRedisInstance({ redisUrl, keyPrefix, journalPath, interval: Number(interval) }).then(
  (instance) => process.stdout.write(`listening ${instance.url}\n`),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
