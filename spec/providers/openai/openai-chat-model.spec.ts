import { from, lastValueFrom, tap, type Subscription } from 'rxjs';
import { aggregate } from '../../../lib/core/aggregate.js';
import type { ChatChunk } from '../../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../../lib/core/chat-request.js';
import { InvalidOptionsError } from '../../../lib/errors/invalid-options-error.js';
import { ProviderError } from '../../../lib/errors/provider-error.js';
import { OpenAiChatModel } from '../../../lib/providers/openai/index.js';
import { collect, failure, OPENAI_TEST_KEY, openAiClient } from '../support/clients.js';
import { framesFromLines } from '../support/fixtures.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';
import {
  chatChunk,
  syntheticChatBareCompatible,
  syntheticChatErrorMidStream,
  syntheticChatParallelToolCalls,
  syntheticChatText,
  syntheticChatToolCallStream,
  syntheticResponsesFailed,
  syntheticResponsesIncomplete,
} from '../support/synthetic-streams.js';

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });
/** Multi-byte characters on purpose: a split inside one must not corrupt the arguments. */
const ARGS = '{"city":"Zürich","note":"😀 ok","n":[1,2]}';

describe('OpenAiChatModel (synthetic streams through the real openai SDK)', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  const chatModel = (maxRetries = 0): OpenAiChatModel =>
    new OpenAiChatModel({ client: openAiClient(server, maxRetries), model: 'gpt-test' });

  describe('tool-call arguments', () => {
    it('assembles the arguments whatever character they are split at', async () => {
      const model = chatModel();
      const chars = Array.from(ARGS);
      for (let at = 1; at < chars.length; at++) {
        const pieces = [chars.slice(0, at).join(''), chars.slice(at).join('')];
        server.enqueue({ kind: 'sse', body: syntheticChatToolCallStream(pieces) });
        const chunks = await collect(model.stream(request));
        const calls = chunks.filter((chunk) => chunk.type === 'tool-call');
        expect(calls).toEqual([
          { type: 'tool-call', id: 'call_split', name: 'lookup', arguments: ARGS },
        ]);
      }
    });

    it('assembles arguments sent one character per event, the body written one byte at a time', async () => {
      server.enqueue({
        kind: 'sse',
        body: syntheticChatToolCallStream(Array.from(ARGS)),
        chunkBytes: 1,
        paced: true,
      });
      const chunks = await collect(chatModel().stream(request));
      const deltas = chunks.filter((chunk) => chunk.type === 'tool-call-delta');
      expect(deltas[0]).toEqual({
        type: 'tool-call-delta',
        index: 0,
        id: 'call_split',
        name: 'lookup',
        argumentsDelta: '',
      });
      expect(deltas.map((chunk) => chunk.argumentsDelta).join('')).toBe(ARGS);
      expect(deltas).toHaveLength(Array.from(ARGS).length + 1);
      const response = await lastValueFrom(from(chunks).pipe(aggregate()));
      expect(response.message.toolCalls).toEqual([
        { id: 'call_split', name: 'lookup', arguments: ARGS },
      ]);
      expect(JSON.parse(response.message.toolCalls![0].arguments)).toEqual({
        city: 'Zürich',
        note: '😀 ok',
        n: [1, 2],
      });
      expect(response.finishReason).toBe('tool-calls');
    }, 30_000);

    it('keeps parallel tool calls apart by index and emits each once complete', async () => {
      server.enqueue({ kind: 'sse', body: syntheticChatParallelToolCalls() });
      const chunks = await collect(chatModel().stream(request));
      const types = chunks.map((chunk) => chunk.type);
      // Complete calls come when the choice finishes, before usage and finish.
      expect(types.slice(-4)).toEqual(['tool-call', 'tool-call', 'usage', 'finish']);
      const response = await lastValueFrom(from(chunks).pipe(aggregate()));
      expect(response.message.toolCalls).toEqual([
        { id: 'call_paris', name: 'getTime', arguments: '{"city":"Paris"}' },
        { id: 'call_tokyo', name: 'getTime', arguments: '{"city":"Tokyo"}' },
      ]);
      expect(response.usage).toEqual({ inputTokens: 50, outputTokens: 30, totalTokens: 80 });
    });
    it('passes on a tool name that arrives after the first fragment', async () => {
      server.enqueue({
        kind: 'sse',
        body: framesFromLines('openai-chat', [
          chatChunk({ tool_calls: [{ index: 0, id: 'call_late', function: { arguments: '' } }] }),
          chatChunk({ tool_calls: [{ index: 0, function: { name: 'lookup', arguments: '{}' } }] }),
          chatChunk({}, 'tool_calls'),
        ]),
      });
      const chunks = await collect(chatModel().stream(request));
      expect(chunks.filter((chunk) => chunk.type.startsWith('tool-call'))).toEqual([
        { type: 'tool-call-delta', index: 0, id: 'call_late', argumentsDelta: '' },
        { type: 'tool-call-delta', index: 0, name: 'lookup', argumentsDelta: '{}' },
        { type: 'tool-call', id: 'call_late', name: 'lookup', arguments: '{}' },
      ]);
    });
  });

  describe('failures', () => {
    it('turns an error event in the middle of the stream into a retryable ProviderError', async () => {
      server.enqueue({ kind: 'sse', body: syntheticChatErrorMidStream() });
      const seen: ChatChunk[] = [];
      const error = await failure(
        chatModel()
          .stream(request)
          .pipe(tap((chunk) => seen.push(chunk))),
      );
      // What came before the error was delivered.
      expect(
        seen.filter((chunk) => chunk.type === 'text-delta').map((chunk) => chunk.text),
      ).toEqual(['Partial ', 'answer']);
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ provider: 'openai', status: undefined, retryable: true });
      expect((error as ProviderError).message).toContain('server_error');
      expect((error as ProviderError).cause).toBeInstanceOf(Error);
    });

    it('turns a connection dropped mid-stream into a retryable ProviderError', async () => {
      const body = syntheticChatText('This answer will be cut off by a dropped connection.');
      server.enqueue({ kind: 'sse', body, dropAfterBytes: Math.floor(body.length / 2) });
      const error = await failure(chatModel().stream(request));
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ provider: 'openai', status: undefined, retryable: true });
      expect((error as Error).message).toMatch(/connection/);
    });

    it('turns malformed stream data into a non-retryable ProviderError', async () => {
      server.enqueue({ kind: 'sse', body: 'data: {"id":"x","choices":[]}\n\ndata: {not json\n\n' });
      const error = await failure(chatModel().stream(request));
      expect(error).toMatchObject({ provider: 'openai', retryable: false });
      expect((error as Error).message).toMatch(/malformed/);
      expect((error as Error).cause).toBeInstanceOf(SyntaxError);
    });

    it('succeeds after a 429 through the SDK’s own retry', async () => {
      server.enqueue(
        {
          kind: 'json',
          status: 429,
          json: {
            error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
          },
          headers: { 'retry-after-ms': '0' },
        },
        { kind: 'sse', body: syntheticChatText('Second time lucky.') },
      );
      const before = server.requests.length;
      const response = await lastValueFrom(chatModel(1).stream(request).pipe(aggregate()));
      expect(response.text).toBe('Second time lucky.');
      expect(server.requests.length - before).toBe(2);
    });

    it.each([
      [429, true],
      [500, true],
      [503, true],
      [400, false],
      [404, false],
    ])(
      'reports HTTP %i with retryable %s when retries are exhausted',
      async (status, retryable) => {
        server.enqueue({
          kind: 'json',
          status,
          json: { error: { message: `status ${status}`, type: 'x' } },
        });
        const error = await failure(chatModel().stream(request));
        expect(ProviderError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ provider: 'openai', status, retryable });
        expect((error as Error).message).toContain(`HTTP ${status}`);
      },
    );

    it('never puts the API key in an error message', async () => {
      server.enqueue({
        kind: 'json',
        status: 401,
        json: {
          error: {
            message: `Incorrect API key provided: ${OPENAI_TEST_KEY}.`,
            type: 'invalid_request_error',
          },
        },
      });
      const error = await failure(chatModel().stream(request));
      expect(error).toMatchObject({ status: 401, retryable: false });
      expect((error as Error).message).not.toContain(OPENAI_TEST_KEY);
      expect((error as Error).message).toContain('Incorrect API key provided: [redacted]');
    });
  });

  describe('cold streams and cancellation', () => {
    it('sends nothing until subscribed, and one request per subscription', async () => {
      const model = chatModel();
      const before = server.requests.length;
      const stream$ = model.stream(request);
      expect(server.requests.length).toBe(before);
      server.enqueue(
        { kind: 'sse', body: syntheticChatText('one') },
        { kind: 'sse', body: syntheticChatText('two') },
      );
      const first = await lastValueFrom(stream$.pipe(aggregate()));
      const second = await lastValueFrom(stream$.pipe(aggregate()));
      expect([first.text, second.text]).toEqual(['one', 'two']);
      expect(server.requests.length - before).toBe(2);
    });

    it('closes the HTTP connection when the subscriber unsubscribes', async () => {
      // The server sends the first chunks and then holds the response open.
      server.enqueue({
        kind: 'sse',
        body: syntheticChatText('Never finishes')
          .split('data: {"id"')
          .slice(0, 3)
          .join('data: {"id"'),
        hold: true,
      });
      const closed = server.nextClientClose();
      const seen: ChatChunk[] = [];
      let subscription: Subscription | undefined;
      await new Promise<void>((resolve) => {
        subscription = chatModel()
          .stream(request)
          .subscribe((chunk) => {
            seen.push(chunk);
            resolve();
          });
      });
      // Let the SDK go back to waiting for bytes, then unsubscribe from outside the stream.
      await new Promise((resolve) => setImmediate(resolve));
      subscription!.unsubscribe();
      await expect(closed).resolves.toBeUndefined();
      expect(seen.map((chunk) => chunk.type)).toEqual(['metadata', 'text-delta', 'text-delta']);
    });
  });

  it('aborts the request when unsubscribed before the response has started', async () => {
    server.enqueue({ kind: 'stall' });
    const received = server.nextRequest();
    const closed = server.nextClientClose();
    const seen: ChatChunk[] = [];
    const errors: unknown[] = [];
    const subscription = chatModel()
      .stream(request)
      .subscribe({
        next: (chunk) => seen.push(chunk),
        error: (error: unknown) => errors.push(error),
      });
    await received;
    subscription.unsubscribe();
    await expect(closed).resolves.toBeUndefined();
    expect(seen).toEqual([]);
    expect(errors).toEqual([]);
  });

  describe('compatible servers', () => {
    it('reports unknown usage as undefined and a missing finish reason as other', async () => {
      server.enqueue({ kind: 'sse', body: syntheticChatBareCompatible() });
      const chunks = await collect(chatModel().stream(request));
      const response = await lastValueFrom(from(chunks).pipe(aggregate()));
      expect(response.text).toBe('ok');
      expect(response.usage).toEqual({
        inputTokens: undefined,
        outputTokens: undefined,
        totalTokens: undefined,
      });
      expect(chunks.filter((chunk) => chunk.type === 'usage')).toHaveLength(1);
      // No id from the server: one is made up so that the tool result can answer it.
      expect(response.message.toolCalls).toEqual([{ id: 'call_0', name: 'ping', arguments: '{}' }]);
      expect(response.finishReason).toBe('other');
      expect(chunks.some((chunk) => chunk.type === 'metadata')).toBe(false);
    });
  });

  it('ends an empty Chat Completions stream with unknown usage and finish reason other', async () => {
    server.enqueue({ kind: 'sse', body: 'data: [DONE]\n\n' });
    const chunks = await collect(chatModel().stream(request));
    expect(chunks).toEqual([
      {
        type: 'usage',
        usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
      },
      { type: 'finish', reason: 'other' },
    ]);
  });

  describe('Responses API', () => {
    const responsesModel = (): OpenAiChatModel =>
      new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test', api: 'responses' });

    it('maps response.incomplete (max_output_tokens) to finish reason length, with usage', async () => {
      server.enqueue({ kind: 'sse', body: syntheticResponsesIncomplete() });
      const response = await lastValueFrom(responsesModel().stream(request).pipe(aggregate()));
      expect(response.text).toBe('Once upon');
      expect(response.finishReason).toBe('length');
      expect(response.usage).toEqual({
        inputTokens: 8,
        outputTokens: 2,
        totalTokens: 10,
        cacheReadTokens: 0,
        reasoningTokens: 0,
      });
    });

    it('fails with a retryable ProviderError when the stream ends before response.completed', async () => {
      const body = syntheticResponsesIncomplete();
      const cut = body.indexOf('data: {"type":"response.incomplete"');
      expect(cut).toBeGreaterThan(0);
      server.enqueue({
        kind: 'sse',
        body: body.slice(0, cut),
      });
      const error = await failure(responsesModel().stream(request));
      expect(error).toMatchObject({ provider: 'openai', retryable: true });
      expect((error as Error).message).toContain('before response.completed');
    });

    it('turns response.failed into a ProviderError', async () => {
      server.enqueue({ kind: 'sse', body: syntheticResponsesFailed() });
      const error = await failure(responsesModel().stream(request));
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ provider: 'openai', retryable: true });
      expect((error as Error).message).toContain('The model crashed.');
    });
  });

  describe('options', () => {
    it('rejects a missing client, an unknown api and an empty model with InvalidOptionsError', () => {
      const client = openAiClient(server);
      const attempts = [
        () => new OpenAiChatModel({ model: 'gpt-test' } as never),
        () => new OpenAiChatModel({ client, model: 'gpt-test', api: 'assistants' as never }),
        () => new OpenAiChatModel({ client, model: '' }),
        () => new OpenAiChatModel({ client, model: 'gpt-test', maxTokensField: 'tokens' as never }),
      ];
      const options = attempts.map((attempt) => {
        try {
          attempt();
        } catch (error) {
          return InvalidOptionsError.isInstance(error) ? error.option : 'not InvalidOptionsError';
        }
        return 'no error';
      });
      expect(options).toEqual(['client', 'api', 'model', 'maxTokensField']);
    });

    it('reports its provider name (default openai)', () => {
      const client = openAiClient(server);
      expect(new OpenAiChatModel({ client, model: 'm' }).provider).toBe('openai');
      expect(new OpenAiChatModel({ client, model: 'm', provider: 'ollama' }).provider).toBe(
        'ollama',
      );
    });
  });
});
