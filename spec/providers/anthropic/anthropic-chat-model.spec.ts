import { from, lastValueFrom, tap, type Subscription } from 'rxjs';
import { aggregate } from '../../../lib/core/aggregate.js';
import type { ChatChunk } from '../../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../../lib/core/chat-request.js';
import { InvalidOptionsError } from '../../../lib/errors/invalid-options-error.js';
import { ProviderError } from '../../../lib/errors/provider-error.js';
import { AnthropicChatModel } from '../../../lib/providers/anthropic/index.js';
import { ANTHROPIC_TEST_KEY, anthropicClient, collect, failure } from '../support/clients.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import {
  syntheticAnthropicErrorMidStream,
  syntheticAnthropicText,
  syntheticAnthropicThinkingAndTool,
} from '../support/synthetic-streams.js';

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

describe('AnthropicChatModel (synthetic streams through the real @anthropic-ai/sdk)', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  const model = (maxRetries = 0): AnthropicChatModel =>
    new AnthropicChatModel({ client: anthropicClient(server, maxRetries), model: 'claude-test' });

  it('emits a reasoning chunk per thinking block (signature joined, redacted data kept) and cache usage', async () => {
    server.enqueue({ kind: 'sse', body: syntheticAnthropicThinkingAndTool() });
    const chunks = await collect(model().stream(request));
    expect(chunks.filter((chunk) => chunk.type === 'reasoning')).toEqual([
      { type: 'reasoning', text: '', redactedData: 'EmwKAhgBEgy3va3pzix' },
      { type: 'reasoning', text: 'Need the time.', signature: 'sig-part-1-part-2' },
    ]);
    const response = await lastValueFrom(from(chunks).pipe(aggregate()));
    expect(response.reasoning).toBe('Need the time.');
    expect(response.message.toolCalls).toEqual([
      { id: 'toolu_time', name: 'getTime', arguments: '{"city":"Paris"}' },
    ]);
    // input_tokens excludes the cache: the cached 40 read and 10 written are added back.
    expect(response.usage).toEqual({
      inputTokens: 150,
      outputTokens: 42,
      totalTokens: 192,
      cacheReadTokens: 40,
      cacheWriteTokens: 10,
      reasoningTokens: 20,
    });
    expect(response.finishReason).toBe('tool-calls');
  });

  it('turns an error event in the middle of the stream into a retryable ProviderError', async () => {
    server.enqueue({ kind: 'sse', body: syntheticAnthropicErrorMidStream() });
    const seen: ChatChunk[] = [];
    const error = await failure(
      model()
        .stream(request)
        .pipe(tap((chunk) => seen.push(chunk))),
    );
    expect(seen.filter((chunk) => chunk.type === 'text-delta')).toEqual([
      { type: 'text-delta', text: 'Partial' },
    ]);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ provider: 'anthropic', status: undefined, retryable: true });
    expect((error as Error).message).toContain('overloaded_error');
  });

  it('turns a connection dropped mid-stream into a retryable ProviderError', async () => {
    const body = syntheticAnthropicText('A long answer that the network will cut in the middle.');
    server.enqueue({ kind: 'sse', body, dropAfterBytes: Math.floor(body.length / 2) });
    const error = await failure(model().stream(request));
    expect(error).toMatchObject({ provider: 'anthropic', retryable: true });
    expect((error as Error).message).toMatch(/connection/);
  });

  it('fails with a retryable ProviderError when the stream ends cleanly before message_stop', async () => {
    const body = syntheticAnthropicText('Cut short');
    const cut = body.indexOf('event: content_block_stop');
    expect(cut).toBeGreaterThan(0);
    server.enqueue({ kind: 'sse', body: body.slice(0, cut) });
    const seen: ChatChunk[] = [];
    const error = await failure(
      model()
        .stream(request)
        .pipe(tap((chunk) => seen.push(chunk))),
    );
    expect(error).toMatchObject({ provider: 'anthropic', retryable: true });
    expect((error as Error).message).toContain('before message_stop');
    expect(seen.some((chunk) => chunk.type === 'finish')).toBe(false);
  });

  it('fails the same way on an empty 200 response', async () => {
    server.enqueue({ kind: 'sse', body: '' });
    const error = await failure(model().stream(request));
    expect(error).toMatchObject({ provider: 'anthropic', retryable: true });
  });

  it('succeeds after a 429 through the SDK’s own retry', async () => {
    server.enqueue(
      {
        kind: 'json',
        status: 429,
        json: { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } },
        headers: { 'retry-after-ms': '0' },
      },
      { kind: 'sse', body: syntheticAnthropicText('Second time lucky.') },
    );
    const before = server.requests.length;
    const response = await lastValueFrom(model(1).stream(request).pipe(aggregate()));
    expect(response.text).toBe('Second time lucky.');
    expect(server.requests.length - before).toBe(2);
  });

  it('reports a 529 overload with status and retryable when retries are exhausted', async () => {
    server.enqueue({
      kind: 'json',
      status: 529,
      json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    const error = await failure(model().stream(request));
    expect(error).toMatchObject({ provider: 'anthropic', status: 529, retryable: true });
    expect((error as Error).message).toBe(
      'anthropic: the request failed with HTTP 529: Overloaded',
    );
  });

  it('never puts the API key in an error message', async () => {
    server.enqueue({
      kind: 'json',
      status: 401,
      json: {
        type: 'error',
        error: { type: 'authentication_error', message: `invalid x-api-key ${ANTHROPIC_TEST_KEY}` },
      },
    });
    const error = await failure(model().stream(request));
    expect(error).toMatchObject({ status: 401, retryable: false });
    expect((error as Error).message).not.toContain(ANTHROPIC_TEST_KEY);
    expect((error as Error).message).toContain('[redacted]');
  });

  it('closes the HTTP connection when the subscriber unsubscribes', async () => {
    const body = syntheticAnthropicText('Never finishes');
    server.enqueue({
      kind: 'sse',
      body: body.slice(0, body.indexOf('event: content_block_stop')),
      hold: true,
    });
    const closed = server.nextClientClose();
    const seen: ChatChunk[] = [];
    let subscription: Subscription | undefined;
    await new Promise<void>((resolve) => {
      subscription = model()
        .stream(request)
        .subscribe((chunk) => {
          seen.push(chunk);
          if (seen.length === 3) resolve();
        });
    });
    await new Promise((resolve) => setImmediate(resolve));
    subscription!.unsubscribe();
    await expect(closed).resolves.toBeUndefined();
    expect(seen.map((chunk) => chunk.type)).toEqual(['metadata', 'text-delta', 'text-delta']);
  });

  it('rejects a missing client, an empty model and a bad maxTokens with InvalidOptionsError', () => {
    const client = anthropicClient(server);
    const attempts = [
      () => new AnthropicChatModel({ model: 'claude-test' } as never),
      () => new AnthropicChatModel({ client, model: ' ' }),
      () => new AnthropicChatModel({ client, model: 'claude-test', maxTokens: 0 }),
    ];
    const options = attempts.map((attempt) => {
      try {
        attempt();
      } catch (error) {
        return InvalidOptionsError.isInstance(error) ? error.option : 'not InvalidOptionsError';
      }
      return 'no error';
    });
    expect(options).toEqual(['client', 'model', 'maxTokens']);
    expect(new AnthropicChatModel({ client, model: 'claude-test' }).provider).toBe('anthropic');
  });
});
