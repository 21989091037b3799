// A child process for the two-process tests: appends `turns` turns to one conversation
// through its own MessageWindowChatMemory, after the parent says "go" on stdin.
//   tsx concurrent-memory-writer.ts <redis|postgres|sqlite> <url or file> <namespace> <conversation> <writer> <turns>
import Database from 'better-sqlite3';
import pg from 'pg';
import { createClient } from 'redis';
import { createInterface } from 'node:readline';
import { MessageWindowChatMemory, type ChatMemoryRepository } from '../../../lib/index';
import { PostgresChatMemoryRepository } from '../../../lib/memory/postgres/index';
import { RedisChatMemoryRepository } from '../../../lib/memory/redis/index';
import { SqliteChatMemoryRepository } from '../../../lib/memory/sqlite/index';

const [store, url, namespace, conversationId, writer, turns] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];

async function main(): Promise<void> {
  let repository: ChatMemoryRepository;
  let close: () => Promise<unknown>;
  if (store === 'redis') {
    const client = await createClient({ url }).connect();
    repository = new RedisChatMemoryRepository({ client, keyPrefix: namespace });
    close = () => client.quit();
  } else if (store === 'sqlite') {
    // The busy timeout lets one process wait while the other holds the write lock.
    const database = new Database(url, { timeout: 10_000 });
    repository = new SqliteChatMemoryRepository({ database, tableName: namespace });
    await repository.findByConversationId(conversationId); // creates the table before "go"
    close = () => Promise.resolve(database.close());
  } else {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    repository = new PostgresChatMemoryRepository({ pool, tableName: namespace });
    await repository.findByConversationId(conversationId); // creates the table before "go"
    close = () => pool.end();
  }
  const memory = new MessageWindowChatMemory({ maxMessages: 100_000, repository });
  process.stdout.write('ready\n');
  // Wait for the parent's "go", then let stdin go so the process can exit.
  const lines = createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => lines.once('line', () => resolve()));
  lines.close();
  process.stdin.destroy();
  for (let i = 0; i < Number(turns); i++) {
    await memory.add(conversationId, [
      { role: 'user', content: `${writer}-${i}` },
      { role: 'assistant', content: `${writer}-${i}-answer` },
    ]);
  }
  await close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
