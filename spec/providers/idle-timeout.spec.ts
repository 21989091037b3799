// Issue 13.10: a provider stream that stalls (before or after its headers) ends with a
// retryable ProviderIdleTimeoutError and the HTTP request is aborted. Through the real
// SDK clients against a loopback server.
import { firstValueFrom } from 'rxjs';
import {
  ChatClient,
  ChatRequest,
  InvalidOptionsError,
  ProviderIdleTimeoutError,
  RetryAdvisor,
} from 'rx-advisors';
import { AnthropicChatModel } from 'rx-advisors/anthropic';
import { OpenAiChatModel } from 'rx-advisors/openai';
import type { ChatChunk } from '../../lib/core/chat-chunk.js';
import { anthropicClient, failure, openAiClient } from './support/clients.js';
import { framesFromLines } from './support/fixtures.js';
import { startReplayServer, type ReplayServer } from './support/replay-server.js';
import { chatChunk, syntheticChatText } from './support/synthetic-streams.js';

jest.setTimeout(20_000);

const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });
const IDLE = 300;

describe('idleTimeout, through the real SDK clients', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  const openAi = (idleTimeout = IDLE): OpenAiChatModel =>
    new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test', idleTimeout });

  it('fails a stream that sends headers and then nothing, and closes the connection', async () => {
    server.enqueue({ kind: 'sse', body: '', hold: true });
    const closed = server.nextClientClose();
    const started = performance.now();
    const error = await failure(openAi().stream(request));
    expect(ProviderIdleTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'openai', retryable: true, idleTimeout: IDLE });
    expect(performance.now() - started).toBeGreaterThanOrEqual(IDLE - 20);
    await expect(closed).resolves.toBeUndefined();
  });

  it('fails a stream that stalls between two chunks, after the chunks already sent', async () => {
    const first = framesFromLines('openai-chat', [chatChunk({ content: 'Hel' })]).replace(
      /data: \[DONE\]\n\n$/,
      '',
    );
    server.enqueue({ kind: 'sse', body: first, hold: true });
    const closed = server.nextClientClose();
    const seen: ChatChunk[] = [];
    const error = await new Promise<unknown>((resolve) => {
      openAi()
        .stream(request)
        .subscribe({
          next: (chunk) => seen.push(chunk),
          error: resolve,
          complete: () => resolve('completed'),
        });
    });
    expect(ProviderIdleTimeoutError.isInstance(error)).toBe(true);
    expect(seen.map((chunk) => chunk.type)).toEqual(['metadata', 'text-delta']);
    await expect(closed).resolves.toBeUndefined();
  });

  it('fails a request that gets no headers at all', async () => {
    server.enqueue({ kind: 'stall' });
    const closed = server.nextClientClose();
    const error = await failure(openAi().stream(request));
    expect(ProviderIdleTimeoutError.isInstance(error)).toBe(true);
    await expect(closed).resolves.toBeUndefined();
  });

  it('does the same for Anthropic', async () => {
    server.enqueue({ kind: 'sse', body: '', hold: true });
    const closed = server.nextClientClose();
    const model = new AnthropicChatModel({
      client: anthropicClient(server),
      model: 'claude-test',
      idleTimeout: IDLE,
    });
    const error = await failure(model.stream(request));
    expect(error).toMatchObject({ provider: 'anthropic', retryable: true, idleTimeout: IDLE });
    expect(ProviderIdleTimeoutError.isInstance(error)).toBe(true);
    await expect(closed).resolves.toBeUndefined();
  });

  it('is retried by RetryAdvisor: a stalled call, then a good one', async () => {
    server.enqueue(
      { kind: 'sse', body: '', hold: true },
      { kind: 'sse', body: syntheticChatText() },
    );
    const before = server.requests.length;
    const client = ChatClient.builder(openAi())
      .defaultAdvisors(new RetryAdvisor({ maxAttempts: 2, backoff: { initialDelay: 1 } }))
      .build();
    await expect(firstValueFrom(client.prompt('Hi').call().content())).resolves.toBe(
      'Hello there!',
    );
    expect(server.requests.length - before).toBe(2);
  });

  it('rejects an idleTimeout that is not a positive integer up to 2^31 - 1, or Infinity', () => {
    const client = openAiClient(server);
    for (const idleTimeout of [0, -1, 1.5, Number.NaN, 2 ** 31, '1000']) {
      const attempt = (): unknown =>
        new OpenAiChatModel({ client, model: 'm', idleTimeout: idleTimeout as number });
      expect(attempt).toThrow(InvalidOptionsError);
      expect(attempt).toThrow(/idleTimeout/);
      const anthropic = (): unknown =>
        new AnthropicChatModel({
          client: anthropicClient(server),
          model: 'm',
          idleTimeout: idleTimeout as number,
        });
      expect(anthropic).toThrow(/idleTimeout/);
    }
    expect(() => new OpenAiChatModel({ client, model: 'm', idleTimeout: Infinity })).not.toThrow();
  });
});
