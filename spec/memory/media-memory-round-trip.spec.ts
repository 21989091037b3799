// An image sent in turn 1 is stored by MessageChatMemoryAdvisor in SQLite and reaches the
// provider again in turn 2: real better-sqlite3, the real @anthropic-ai/sdk, a loopback server.
import Database from 'better-sqlite3';
import { lastValueFrom } from 'rxjs';
import { ChatClient, MessageChatMemoryAdvisor, MessageWindowChatMemory } from '../../lib/index';
import { SqliteChatMemoryRepository } from '../../lib/memory/sqlite/index';
import { AnthropicChatModel } from '../../lib/providers/anthropic/index';
import { anthropicClient } from '../providers/support/clients';
import { PNG_BASE64, PNG_BYTES } from '../providers/support/media';
import {
  startReplayServer,
  type ReplayServer,
  type WireJson,
} from '../providers/support/replay-server';
import { syntheticAnthropicText } from '../providers/support/synthetic-streams';

jest.setTimeout(20_000);

describe('Images through memory and back to the provider', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  it('replays turn 1’s image (stored in SQLite) in turn 2’s request', async () => {
    const database = new Database(':memory:');
    const chatMemory = new MessageWindowChatMemory({
      maxMessages: 20,
      repository: new SqliteChatMemoryRepository({ database }),
    });
    const client = ChatClient.builder(
      new AnthropicChatModel({ client: anthropicClient(server), model: 'claude-test' }),
    )
      .defaultAdvisors(new MessageChatMemoryAdvisor({ chatMemory }))
      .build();
    server.enqueue(
      { kind: 'sse', body: syntheticAnthropicText('A cat.') },
      { kind: 'sse', body: syntheticAnthropicText('Grey.') },
    );

    await lastValueFrom(
      client
        .prompt()
        .messages({
          role: 'user',
          content: 'What is this?',
          media: [{ mediaType: 'image/png', data: { bytes: PNG_BYTES } }],
        })
        .advisorParams({ conversationId: 'c1' })
        .call()
        .content(),
    );
    await lastValueFrom(
      client.prompt('What colour?').advisorParams({ conversationId: 'c1' }).call().content(),
    );

    const second: WireJson = server.requests[1].body;
    expect(second.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
          { type: 'text', text: 'What is this?' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'A cat.' }] },
      { role: 'user', content: [{ type: 'text', text: 'What colour?' }] },
    ]);
    database.close();
  });
});
