// Issue 13.3: a hostile tool-call or content-block index, sent through the real SDK
// clients by a loopback server. The index is a key, never an array position; what is not
// a non-negative integer fails the call with a non-retryable ProviderProtocolError.
import { ChatRequest } from '../../lib/core/chat-request.js';
import { ProviderError } from '../../lib/errors/provider-error.js';
import { ProviderProtocolError } from '../../lib/errors/provider-protocol-error.js';
import { AnthropicChatModel } from '../../lib/providers/anthropic/index.js';
import { OpenAiChatModel } from '../../lib/providers/openai/index.js';
import { anthropicClient, collect, failure, openAiClient } from './support/clients.js';
import { framesFromLines } from './support/fixtures.js';
import { startReplayServer, type ReplayServer } from './support/replay-server.js';
import { chatChunk, chatUsageChunk } from './support/synthetic-streams.js';

jest.setTimeout(20_000);

const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

/** One tool call whose fragments carry the given index. */
function chatToolCallAt(index: unknown): string {
  return framesFromLines('openai-chat', [
    chatChunk({ role: 'assistant', content: null }),
    chatChunk({
      tool_calls: [
        { index, id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '' } },
      ],
    }),
    chatChunk({ tool_calls: [{ index, function: { arguments: '{"q":1}' } }] }),
    chatChunk({}, 'tool_calls'),
    chatUsageChunk(5, 5),
  ]);
}

/** A JSON body with a literal the JSON encoder cannot write (`1e400` parses to Infinity). */
function withRawIndex(literal: string): string {
  return chatToolCallAt('__INDEX__').split('"__INDEX__"').join(literal);
}

function anthropicBlockAt(index: unknown): string {
  return framesFromLines('anthropic', [
    JSON.stringify({
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-test',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 1 },
      },
    }),
    JSON.stringify({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} },
    }),
    JSON.stringify({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: '{"q":1}' },
    }),
    JSON.stringify({ type: 'content_block_stop', index }),
    JSON.stringify({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 4 },
    }),
    JSON.stringify({ type: 'message_stop' }),
  ]);
}

function responsesCallAt(outputIndex: unknown): string {
  const response = { id: 'resp_1', object: 'response', model: 'gpt-test', output: [] };
  const item = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'lookup' };
  return framesFromLines('openai-responses', [
    JSON.stringify({
      type: 'response.created',
      sequence_number: 0,
      response: { ...response, status: 'in_progress', usage: null },
    }),
    JSON.stringify({
      type: 'response.output_item.added',
      sequence_number: 1,
      output_index: outputIndex,
      item: { ...item, arguments: '', status: 'in_progress' },
    }),
    JSON.stringify({
      type: 'response.function_call_arguments.delta',
      sequence_number: 2,
      item_id: 'fc_1',
      output_index: outputIndex,
      delta: '{"q":1}',
    }),
    JSON.stringify({
      type: 'response.output_item.done',
      sequence_number: 3,
      output_index: outputIndex,
      item: { ...item, arguments: '{"q":1}', status: 'completed' },
    }),
    JSON.stringify({
      type: 'response.completed',
      sequence_number: 4,
      response: { ...response, status: 'completed', usage: null },
    }),
  ]);
}

describe('a hostile stream index, through the real SDK clients', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  const chat = (): OpenAiChatModel =>
    new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test' });

  describe('Chat Completions tool_calls[].index', () => {
    it('keeps a huge index as a key: the call arrives and nothing walks the index range', async () => {
      // No wall-clock assertion (no test may depend on machine speed). The old sparse array
      // walked every hole up to the index (1e8: 3.35 s, 2e8: 6.1 s): at 4e9, the last array
      // index, about two minutes, far past this file's 20 s timeout on any machine; a key costs
      // the same at any index.
      server.enqueue({ kind: 'sse', body: chatToolCallAt(4e9) });
      const chunks = await collect(chat().stream(request));
      expect(chunks.filter((chunk) => chunk.type === 'tool-call')).toEqual([
        { type: 'tool-call', id: 'call_1', name: 'lookup', arguments: '{"q":1}' },
      ]);
      expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
    });

    it('keeps an index beyond the array range (2^32 - 1) instead of dropping the call', async () => {
      server.enqueue({ kind: 'sse', body: chatToolCallAt(2 ** 32 - 1) });
      const chunks = await collect(chat().stream(request));
      expect(chunks.filter((chunk) => chunk.type === 'tool-call')).toHaveLength(1);
    });

    it.each([
      ['-1', -1],
      ['0.5', 0.5],
      ['"0"', '0'],
      ['true', true],
    ])('fails with a non-retryable ProviderProtocolError for index %s', async (_label, index) => {
      server.enqueue({ kind: 'sse', body: chatToolCallAt(index) });
      const error = await failure(chat().stream(request));
      expect(ProviderProtocolError.isInstance(error)).toBe(true);
      expect(ProviderError.isInstance(error)).toBe(true);
      const protocolError = error as ProviderProtocolError;
      expect(protocolError).toMatchObject({
        provider: 'openai',
        retryable: false,
        field: 'choices[0].delta.tool_calls[0].index',
        value: index,
      });
      expect(protocolError.message).toContain('a non-negative integer');
    });

    it('fails for an index JSON parses to Infinity (1e400)', async () => {
      server.enqueue({ kind: 'sse', body: withRawIndex('1e400') });
      const error = await failure(chat().stream(request));
      expect(ProviderProtocolError.isInstance(error)).toBe(true);
      expect((error as ProviderProtocolError).value).toBe(Infinity);
    });

    it('sends no chunk after the bad fragment and no tool-call at all', async () => {
      const seen: string[] = [];
      const error = await new Promise<unknown>((resolve) => {
        server.enqueue({ kind: 'sse', body: chatToolCallAt(-1) });
        chat()
          .stream(request)
          .subscribe({
            next: (chunk) => seen.push(chunk.type),
            error: resolve,
            complete: () => resolve('completed'),
          });
      });
      expect(ProviderProtocolError.isInstance(error)).toBe(true);
      expect(seen).toEqual(['metadata']);
    });
  });

  describe('Anthropic content block index', () => {
    const model = (): AnthropicChatModel =>
      new AnthropicChatModel({ client: anthropicClient(server), model: 'claude-test' });

    it('accepts a large block index as a key', async () => {
      server.enqueue({ kind: 'sse', body: anthropicBlockAt(2e8) });
      const chunks = await collect(model().stream(request));
      expect(chunks.filter((chunk) => chunk.type === 'tool-call')).toEqual([
        { type: 'tool-call', id: 'toolu_1', name: 'lookup', arguments: '{"q":1}' },
      ]);
    });

    it.each([[-1], [0.5], ['0']])(
      'fails with a ProviderProtocolError for block index %p',
      async (index) => {
        server.enqueue({ kind: 'sse', body: anthropicBlockAt(index) });
        const error = await failure(model().stream(request));
        expect(ProviderProtocolError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({
          provider: 'anthropic',
          retryable: false,
          field: 'content_block_start.index',
          value: index,
        });
      },
    );
  });

  describe('Responses output_index', () => {
    const model = (): OpenAiChatModel =>
      new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test', api: 'responses' });

    it('accepts a large output index as a key', async () => {
      server.enqueue({ kind: 'sse', body: responsesCallAt(2e8) });
      const chunks = await collect(model().stream(request));
      expect(chunks.filter((chunk) => chunk.type === 'tool-call')).toHaveLength(1);
    });

    it.each([[-1], [0.5], [null]])(
      'fails with a ProviderProtocolError for output_index %p',
      async (index) => {
        server.enqueue({ kind: 'sse', body: responsesCallAt(index) });
        const error = await failure(model().stream(request));
        expect(ProviderProtocolError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({
          retryable: false,
          field: 'response.output_item.added.output_index',
          value: index,
        });
      },
    );
  });
});
