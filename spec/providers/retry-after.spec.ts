import { performance } from 'node:perf_hooks';
import { lastValueFrom, toArray } from 'rxjs';
import { RetryAdvisor } from '../../lib/advisor/retry-advisor.js';
import { ChatClient } from '../../lib/client/chat-client.js';
import { ChatRequest } from '../../lib/core/chat-request.js';
import { ProviderError } from '../../lib/errors/provider-error.js';
import { AnthropicChatModel } from '../../lib/providers/anthropic/index.js';
import { OpenAiChatModel } from '../../lib/providers/openai/index.js';
import { anthropicClient, failure, openAiClient } from './support/clients.js';
import { startReplayServer, type ReplayServer } from './support/replay-server.js';
import { syntheticChatText } from './support/synthetic-streams.js';

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

const openAi429 = (headers: Record<string, string>, status = 429) =>
  ({
    kind: 'json',
    status,
    json: {
      error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
    },
    headers,
  }) as const;

const anthropic429 = (headers: Record<string, string>, status = 429) =>
  ({
    kind: 'json',
    status,
    json: { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } },
    headers,
  }) as const;

/** An HTTP date `seconds` from now, as a server sends it. */
const httpDateIn = (seconds: number): string => new Date(Date.now() + seconds * 1000).toUTCString();

describe('ProviderError.retryAfter from real SDK errors (maxRetries: 0, loopback server)', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  const adapters = [
    {
      name: 'openai',
      api: 'chat completions',
      reply: openAi429,
      model: () => new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test' }),
    },
    {
      name: 'openai',
      api: 'responses',
      reply: openAi429,
      model: () =>
        new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test', api: 'responses' }),
    },
    {
      name: 'anthropic',
      api: 'messages',
      reply: anthropic429,
      model: () =>
        new AnthropicChatModel({ client: anthropicClient(server), model: 'claude-test' }),
    },
  ];

  describe.each(adapters)('$name $api', ({ name, reply, model }) => {
    it.each([
      ['retry-after-ms', { 'retry-after-ms': '30' }, 30],
      ['retry-after in seconds', { 'retry-after': '2' }, 2000],
      ['retry-after-ms over retry-after', { 'retry-after-ms': '750', 'retry-after': '9' }, 750],
    ])('reads %s', async (_case, headers: Record<string, string>, expected) => {
      server.enqueue(reply(headers));
      const before = server.requests.length;
      const error = await failure(model().stream(request));
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        provider: name,
        status: 429,
        retryable: true,
        retryAfter: expected,
      });
      expect(server.requests.length - before).toBe(1);
    });

    it('reads retry-after as an HTTP date', async () => {
      server.enqueue(reply({ 'retry-after': httpDateIn(5) }));
      const error = (await failure(model().stream(request))) as ProviderError;
      // The date has whole seconds and the request took a moment: a little under 5 s.
      expect(error.retryAfter).toBeGreaterThan(3000);
      expect(error.retryAfter).toBeLessThanOrEqual(5000);
    });

    it('reads it on a 503 too, and leaves it undefined without the header', async () => {
      server.enqueue(reply({ 'retry-after': '1' }, 503), reply({}));
      const unavailable = await failure(model().stream(request));
      expect(unavailable).toMatchObject({ status: 503, retryable: true, retryAfter: 1000 });
      const bare = await failure(model().stream(request));
      expect(bare).toMatchObject({ status: 429, retryable: true, retryAfter: undefined });
    });
  });
});

describe('ChatClient + RetryAdvisor + the real openai SDK against a rate-limiting server', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  const client = (advisor: RetryAdvisor) =>
    ChatClient.builder(new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test' }))
      .defaultAdvisors(advisor)
      .build();

  it('waits the Retry-After of a 429, then succeeds', async () => {
    server.enqueue(openAi429({ 'retry-after-ms': '30' }), {
      kind: 'sse',
      body: syntheticChatText('Second time lucky.'),
    });
    const before = server.requests.length;
    const first = server.nextRequest().then(() => performance.now());
    const second = server.nextRequest().then(() => performance.now());
    // A 1 ms backoff: only the server's Retry-After can make the wait 30 ms.
    const advisor = new RetryAdvisor({ backoff: { initialDelay: 1 } });

    const chunks = await lastValueFrom(
      client(advisor).prompt('Hi').stream().chunks().pipe(toArray()),
    );

    const text = chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.text : '')).join('');
    expect(text).toBe('Second time lucky.');
    expect(chunks.filter((chunk) => chunk.type === 'retry')).toEqual([
      {
        type: 'retry',
        attempt: 2,
        reason: 'openai: the request failed with HTTP 429: Rate limit reached',
        advisor: 'retry',
        delay: 30,
      },
    ]);
    expect(server.requests.length - before).toBe(2);
    // Timers may fire up to a millisecond early against performance.now().
    expect((await second) - (await first)).toBeGreaterThanOrEqual(29);
  });

  it('gives up at once when the Retry-After exceeds maxDelay', async () => {
    server.enqueue(openAi429({ 'retry-after': '120' }));
    const before = server.requests.length;
    const error = await failure(
      client(new RetryAdvisor({ maxDelay: 60_000 }))
        .prompt('Hi')
        .stream()
        .chunks(),
    );
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfter: 120_000 });
    expect(server.requests.length - before).toBe(1);
  });
});
