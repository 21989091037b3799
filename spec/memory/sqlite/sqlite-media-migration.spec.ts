import Database from 'better-sqlite3';
import { ChatMemoryError, type Message } from '../../../lib/index';
import { SqliteChatMemoryRepository } from '../../../lib/memory/sqlite/index';

describe('SqliteChatMemoryRepository: a table from before media were stored', () => {
  it('adds the media column, keeps the old rows and stores media from then on', async () => {
    const database = new Database(':memory:');
    // The schema of the previous version, with one stored message.
    database.exec(`CREATE TABLE rx_advisors_chat_memory (
      conversation_id TEXT NOT NULL, position INTEGER NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
      content TEXT NOT NULL, tool_calls TEXT, reasoning TEXT, tool_call_id TEXT, tool_name TEXT,
      is_error INTEGER, created_at INTEGER NOT NULL,
      PRIMARY KEY (conversation_id, position)) WITHOUT ROWID`);
    database
      .prepare(
        `INSERT INTO rx_advisors_chat_memory (conversation_id, position, role, content, created_at)
         VALUES ('old', 0, 'user', 'from before', 1)`,
      )
      .run();
    const repository = new SqliteChatMemoryRepository({ database });

    expect(await repository.findByConversationId('old')).toEqual([
      { role: 'user', content: 'from before' },
    ]);
    const withImage: Message[] = [
      {
        role: 'user',
        content: 'and now',
        media: [{ mediaType: 'image/png', data: { base64: 'iVBORw0KGgo=' } }],
      },
    ];
    await repository.saveAll('new', withImage);
    expect(await repository.findByConversationId('new')).toEqual(withImage);
    database.close();
  });

  it('reads a damaged media column as a ChatMemoryError, not as garbage bytes', async () => {
    const database = new Database(':memory:');
    const repository = new SqliteChatMemoryRepository({ database });
    await repository.saveAll('c', [{ role: 'user', content: 'x' }]);
    database
      .prepare(`UPDATE rx_advisors_chat_memory SET media = ? WHERE conversation_id = 'c'`)
      .run('[{"mediaType":"image/png","bytes":"@@ not base64 @@"}]');
    const error: unknown = await repository.findByConversationId('c').catch((e: unknown) => e);
    expect(ChatMemoryError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('malformed media JSON');
    database.close();
  });

  it('rejects an invalid maxMediaBytes', () => {
    const database = new Database(':memory:');
    expect(() => new SqliteChatMemoryRepository({ database, maxMediaBytes: -1 })).toThrow(
      /maxMediaBytes/,
    );
    database.close();
  });
});
