import pg from 'pg';
import { MessageWindowChatMemory } from '../../../lib/index';
import { PostgresChatMemoryRepository } from '../../../lib/memory/postgres/index';
import {
  describeWith,
  itRestartingServer,
  postgresPlan,
  type StoreServer,
} from '../../support/servers/store-servers';
import { SilentDropProxy } from '../../support/servers/silent-drop-proxy';

// Issue 30, point 9: the first memory turn after a PostgreSQL restart used to fail with
// `ChatMemoryError: Connection terminated unexpectedly` (a stale pooled connection).
const plan = postgresPlan();
let server: StoreServer;
let proxy: SilentDropProxy;

describeWith(plan)('PostgresChatMemoryRepository across a real server restart', () => {
  beforeAll(async () => {
    server = await plan.start();
    const { hostname, port } = new URL(server.url);
    proxy = await SilentDropProxy.start({ host: hostname, port: Number(port) });
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await server?.dispose();
  });

  const restarts = [
    ['SIGINT', 'reset'],
    ['SIGQUIT', 'reset'],
    ['SIGQUIT', 'close'],
  ] as const;
  for (const [signal, dropWith] of restarts) {
    itRestartingServer(plan)(
      `the first turn after a restart (${signal}, stale connections ${dropWith} on use) succeeds on a fresh connection`,
      async () => {
        proxy.dropWith = dropWith;
        const pool = new pg.Pool({ connectionString: proxy.rewrite(server.url), max: 4 });
        pool.on('error', () => undefined);
        try {
          const repository = new PostgresChatMemoryRepository({
            pool,
            tableName: `rx_restart_${process.pid}_${signal}_${dropWith}`,
          });
          const chatMemory = new MessageWindowChatMemory({ repository, maxMessages: 10 });
          await chatMemory.add('ada', [{ role: 'user', content: 'before' }]);
          expect(pool.idleCount).toBeGreaterThan(0);

          await server.control?.stop(signal);
          await server.control?.start();

          // One turn, as MessageChatMemoryAdvisor makes it: a read, then a write.
          expect(await chatMemory.get('ada')).toEqual([{ role: 'user', content: 'before' }]);
          await chatMemory.add('ada', [{ role: 'user', content: 'after' }]);
          expect(await repository.findByConversationId('ada')).toEqual([
            { role: 'user', content: 'before' },
            { role: 'user', content: 'after' },
          ]);
        } finally {
          await pool.end();
        }
      },
      60_000,
    );
  }

  itRestartingServer(plan)(
    'a write that is the first statement after a restart succeeds on a fresh connection',
    async () => {
      proxy.dropWith = 'close';
      const pool = new pg.Pool({ connectionString: proxy.rewrite(server.url), max: 4 });
      pool.on('error', () => undefined);
      try {
        const repository = new PostgresChatMemoryRepository({
          pool,
          tableName: `rx_restart_${process.pid}_write`,
        });
        // Several idle connections, all stale after the restart.
        await Promise.all(['a', 'b', 'c'].map((id) => repository.findByConversationId(id)));
        expect(pool.idleCount).toBeGreaterThan(1);

        await server.control?.stop('SIGQUIT');
        await server.control?.start();

        await repository.append('ada', [{ role: 'user', content: 'after' }]);
        await repository.saveAll('bob', [{ role: 'user', content: 'whole' }]);
        expect(await repository.findByConversationId('ada')).toEqual([
          { role: 'user', content: 'after' },
        ]);
        expect(await repository.findByConversationId('bob')).toEqual([
          { role: 'user', content: 'whole' },
        ]);
      } finally {
        await pool.end();
      }
    },
    60_000,
  );
});
