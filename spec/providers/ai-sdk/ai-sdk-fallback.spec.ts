// FallbackAdvisor over two real AI SDK providers: Gemini answers 429 with a Retry-After,
// Mistral answers instead, and the next call skips Gemini until the Retry-After passes.
import { lastValueFrom, toArray } from 'rxjs';
import { FallbackAdvisor } from '../../../lib/advisor/fallback-advisor.js';
import { ChatClient } from '../../../lib/client/chat-client.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import { googleModel, mistralModel, replay } from './support/ai-sdk-targets.js';

jest.setTimeout(20_000);

describe('FallbackAdvisor over AI SDK models', () => {
  let server: ReplayServer;
  beforeEach(async () => {
    server = await startReplayServer();
  });
  afterEach(() => server.close());

  it('answers with Mistral when Gemini is rate limited, then skips Gemini until its Retry-After', async () => {
    const gemini = googleModel(server);
    const mistral = mistralModel(server);
    const client = ChatClient.builder(gemini)
      .defaultAdvisors(new FallbackAdvisor({ models: [gemini, mistral] }))
      .build();
    server.enqueue(
      {
        kind: 'json',
        status: 429,
        json: { error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } },
        headers: { 'retry-after': '30' },
      },
      replay('mistral-text.chunks.txt'),
      replay('mistral-text.chunks.txt'),
    );

    const chunks = await lastValueFrom(client.prompt('Hi').stream().chunks().pipe(toArray()));
    expect(chunks[0]).toMatchObject({ type: 'retry', attempt: 2, advisor: 'fallback' });
    expect((chunks[0] as { reason: string }).reason).toContain('Quota exceeded');
    const text = chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.text : '')).join('');
    expect(text).toBe('Hello, world! This is a test response.');
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'stop' });

    const second = await lastValueFrom(client.prompt('Again').call().content());
    expect(second).toBe('Hello, world! This is a test response.');
    expect(server.requests.map((request) => request.path)).toEqual([
      '/models/gemini-3-pro-preview:streamGenerateContent?alt=sse',
      '/chat/completions',
      '/chat/completions',
    ]);
  });
});
