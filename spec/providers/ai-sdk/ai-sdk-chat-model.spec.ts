import {
  APICallError,
  type LanguageModelV2,
  type LanguageModelV2StreamPart,
  type LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai/test';
import { lastValueFrom, toArray } from 'rxjs';
import { aggregate } from '../../../lib/core/aggregate.js';
import type { ChatChunk } from '../../../lib/core/chat-chunk.js';
import { ChatRequest } from '../../../lib/core/chat-request.js';
import { InvalidOptionsError } from '../../../lib/errors/invalid-options-error.js';
import { ProviderError } from '../../../lib/errors/provider-error.js';
import { AiSdkChatModel } from '../../../lib/providers/ai-sdk/ai-sdk-chat-model.js';
import { failure } from '../support/clients.js';

const V3_USAGE = {
  inputTokens: { total: 120, noCache: 20, cacheRead: 90, cacheWrite: 10 },
  outputTokens: { total: 30, text: 18, reasoning: 12 },
};

const finish = (
  unified: 'stop' | 'tool-calls' = 'stop',
  usage = V3_USAGE,
): LanguageModelV3StreamPart => ({
  type: 'finish',
  finishReason: { unified, raw: unified },
  usage,
});

function mockV3(parts: LanguageModelV3StreamPart[], modelId = 'mock-model'): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    modelId,
    doStream: () => Promise.resolve({ stream: convertArrayToReadableStream(parts) }),
  });
}

const collect = (model: AiSdkChatModel, request = hello()): Promise<ChatChunk[]> =>
  lastValueFrom(model.stream(request).pipe(toArray()));

const hello = (): ChatRequest =>
  ChatRequest.create({ messages: [{ role: 'user', content: 'Hello' }] });

describe('AiSdkChatModel', () => {
  describe('options', () => {
    it.each([
      ['no model', undefined],
      ['a model id string', 'gemini-2.5-flash'],
      ['a V1 model', { specificationVersion: 'v1', doStream: () => undefined }],
    ])('rejects %s with an InvalidOptionsError naming model', (_name, model) => {
      const create = () => new AiSdkChatModel({ model } as never);
      expect(create).toThrow(InvalidOptionsError);
      expect(create).toThrow(/model/);
    });

    it.each([
      ['idleTimeout', { idleTimeout: -1 }],
      ['resolveModel', { resolveModel: 'google' }],
      ['provider', { provider: '' }],
      ['secrets', { secrets: 'key' }],
    ])('rejects a bad %s', (option, extra) => {
      expect(() => new AiSdkChatModel({ model: mockV3([]), ...extra } as never)).toThrow(
        expect.objectContaining({ option }) as Error,
      );
    });

    it("reports the model's provider unless told otherwise", () => {
      expect(new AiSdkChatModel({ model: mockV3([]) }).provider).toBe('mock-provider');
      expect(new AiSdkChatModel({ model: mockV3([]), provider: 'gemini' }).provider).toBe('gemini');
    });
  });

  describe('the call options', () => {
    it('maps messages, reasoning and tool-call metadata, tools, choice, format and extra', async () => {
      const model = mockV3([finish()]);
      const request = ChatRequest.create({
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Weather in Paris?' },
          {
            role: 'assistant',
            content: '',
            reasoning: [
              { text: 'Use the tool.', providerMetadata: { anthropic: { signature: 'sig' } } },
            ],
            toolCalls: [
              {
                id: 'c1',
                name: 'weather',
                arguments: '{"city":"Paris"}',
                providerMetadata: { google: { thoughtSignature: 'ts1' } },
              },
              { id: 'c2', name: 'weather', arguments: 'not json' },
            ],
          },
          { role: 'tool', toolCallId: 'c1', name: 'weather', content: 'sunny' },
          { role: 'tool', toolCallId: 'c2', name: 'weather', content: 'bad', isError: true },
        ],
        options: {
          maxTokens: 100,
          temperature: 0.1,
          topP: 0.9,
          stop: ['END'],
          toolChoice: { type: 'tool', name: 'weather' },
          responseFormat: { type: 'json-schema', schema: { type: 'object' }, name: 'w' },
          extra: {
            topK: 4,
            providerOptions: { google: { thinkingConfig: { thinkingBudget: 0 } } },
          },
        },
        tools: [
          {
            name: 'weather',
            description: 'Weather',
            inputSchema: { type: 'object' },
            returnDirect: false,
            parseArguments: (text: string) => JSON.parse(text) as unknown,
            execute: () => 'sunny',
            convertResult: String,
          },
        ],
      });
      await collect(new AiSdkChatModel({ model }), request);
      const { abortSignal, ...call } = model.doStreamCalls[0];
      expect(abortSignal).toBeInstanceOf(AbortSignal);
      expect(call).toEqual({
        prompt: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
          {
            role: 'assistant',
            content: [
              {
                type: 'reasoning',
                text: 'Use the tool.',
                providerOptions: { anthropic: { signature: 'sig' } },
              },
              {
                type: 'tool-call',
                toolCallId: 'c1',
                toolName: 'weather',
                input: { city: 'Paris' },
                providerOptions: { google: { thoughtSignature: 'ts1' } },
              },
              { type: 'tool-call', toolCallId: 'c2', toolName: 'weather', input: 'not json' },
            ],
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'c1',
                toolName: 'weather',
                output: { type: 'text', value: 'sunny' },
              },
              {
                type: 'tool-result',
                toolCallId: 'c2',
                toolName: 'weather',
                output: { type: 'error-text', value: 'bad' },
              },
            ],
          },
        ],
        tools: [
          {
            type: 'function',
            name: 'weather',
            description: 'Weather',
            inputSchema: { type: 'object' },
          },
        ],
        toolChoice: { type: 'tool', toolName: 'weather' },
        responseFormat: { type: 'json', schema: { type: 'object' }, name: 'w' },
        maxOutputTokens: 100,
        temperature: 0.1,
        topP: 0.9,
        stopSequences: ['END'],
        topK: 4,
        providerOptions: { google: { thinkingConfig: { thinkingBudget: 0 } } },
      });
    });

    it('fails before sending when options.model names another model and nothing resolves it', async () => {
      const model = mockV3([finish()]);
      const error = await failure(
        new AiSdkChatModel({ model }).stream(hello().withOptions({ model: 'other' })),
      );
      expect(InvalidOptionsError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ option: 'options.model', value: 'other' });
      expect(model.doStreamCalls).toHaveLength(0);
    });

    it('asks resolveModel for the model options.model names', async () => {
      const fixed = mockV3([finish()]);
      const other = mockV3([{ type: 'text-delta', id: 't', delta: 'other' }, finish()], 'other');
      const bridge = new AiSdkChatModel({ model: fixed, resolveModel: () => other });
      const chunks = await collect(bridge, hello().withOptions({ model: 'other' }));
      expect(chunks).toContainEqual({ type: 'text-delta', text: 'other' });
      expect(fixed.doStreamCalls).toHaveLength(0);
      expect(other.doStreamCalls).toHaveLength(1);
    });
  });

  describe('the stream', () => {
    it('keeps reasoning metadata (start, delta and end merged) for the next request', async () => {
      const model = mockV3([
        { type: 'response-metadata', id: 'r1', modelId: 'm-2026' },
        { type: 'reasoning-start', id: 'r', providerMetadata: { anthropic: { a: 1 } } },
        { type: 'reasoning-delta', id: 'r', delta: 'Think' },
        {
          type: 'reasoning-delta',
          id: 'r',
          delta: '',
          providerMetadata: { anthropic: { signature: 's' } },
        },
        { type: 'reasoning-end', id: 'r' },
        { type: 'text-delta', id: 't', delta: 'Done' },
        finish(),
      ]);
      const chunks = await collect(new AiSdkChatModel({ model }));
      expect(chunks).toEqual([
        { type: 'metadata', id: 'r1', model: 'm-2026' },
        { type: 'reasoning-delta', text: 'Think' },
        {
          type: 'reasoning',
          text: 'Think',
          providerMetadata: { anthropic: { a: 1, signature: 's' } },
        },
        { type: 'text-delta', text: 'Done' },
        {
          type: 'usage',
          usage: {
            inputTokens: 120,
            outputTokens: 30,
            totalTokens: 150,
            cacheReadTokens: 90,
            cacheWriteTokens: 10,
            reasoningTokens: 12,
          },
        },
        { type: 'finish', reason: 'stop' },
      ]);
    });

    it('assembles reasoning with its provider metadata into the assistant message', async () => {
      const model = mockV3([
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'x' },
        { type: 'reasoning-end', id: 'r', providerMetadata: { anthropic: { signature: 's' } } },
        finish(),
      ]);
      const response = await lastValueFrom(
        new AiSdkChatModel({ model }).stream(hello()).pipe(aggregate()),
      );
      expect(response.message.reasoning).toEqual([
        { text: 'x', providerMetadata: { anthropic: { signature: 's' } } },
      ]);
    });

    it('streams tool input deltas by index and skips provider-executed tools', async () => {
      const model = mockV3([
        { type: 'tool-input-start', id: 'a', toolName: 'search', providerExecuted: true },
        {
          type: 'tool-call',
          toolCallId: 'a',
          toolName: 'search',
          input: '{}',
          providerExecuted: true,
        },
        { type: 'tool-input-start', id: 'b', toolName: 'weather' },
        { type: 'tool-input-delta', id: 'b', delta: '{"city":' },
        { type: 'tool-input-delta', id: 'b', delta: '"Oslo"}' },
        { type: 'tool-input-end', id: 'b' },
        { type: 'tool-call', toolCallId: 'b', toolName: 'weather', input: '{"city":"Oslo"}' },
        finish('tool-calls'),
      ]);
      const chunks = await collect(new AiSdkChatModel({ model }));
      expect(chunks.filter((c) => c.type.startsWith('tool'))).toEqual([
        { type: 'tool-call-delta', index: 0, id: 'b', name: 'weather', argumentsDelta: '' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '"Oslo"}' },
        { type: 'tool-call', id: 'b', name: 'weather', arguments: '{"city":"Oslo"}' },
      ]);
      expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
    });

    it("fails with the APICallError's status, retryability and Retry-After", async () => {
      const apiError = new APICallError({
        message: 'Overloaded',
        url: 'http://x',
        requestBodyValues: {},
        statusCode: 503,
        responseHeaders: { 'retry-after': '2' },
        isRetryable: true,
      });
      const model = new MockLanguageModelV3({ doStream: () => Promise.reject(apiError) });
      const error = await failure(new AiSdkChatModel({ model, secrets: ['k'] }).stream(hello()));
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        status: 503,
        retryable: true,
        retryAfter: 2000,
        cause: apiError,
      });
    });

    it('fails on an error part, and on a stream without a finish part (retryable)', async () => {
      const broken = mockV3([{ type: 'error', error: new Error('boom') }]);
      expect(await failure(new AiSdkChatModel({ model: broken }).stream(hello()))).toMatchObject({
        retryable: false,
        message: expect.stringContaining('boom') as string,
      });
      const cut = mockV3([{ type: 'text-delta', id: 't', delta: 'Hi' }]);
      const error = await failure(new AiSdkChatModel({ model: cut }).stream(hello()));
      expect(error).toMatchObject({ retryable: true });
    });

    it('reads a LanguageModelV2 stream (flat usage, string finish reason)', async () => {
      const parts: LanguageModelV2StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', id: 'v2', modelId: 'old-model' },
        { type: 'text-delta', id: 't', delta: 'Hi' },
        {
          type: 'finish',
          finishReason: 'length',
          usage: {
            inputTokens: 5,
            outputTokens: 2,
            totalTokens: 7,
            cachedInputTokens: 3,
            reasoningTokens: undefined,
          },
        },
      ];
      const calls: unknown[] = [];
      const v2: LanguageModelV2 = {
        specificationVersion: 'v2',
        provider: 'legacy',
        modelId: 'old-model',
        supportedUrls: {},
        doGenerate: () => Promise.reject(new Error('not used')),
        doStream: (options) => {
          calls.push(options);
          return Promise.resolve({ stream: convertArrayToReadableStream(parts) });
        },
      };
      const chunks = await collect(new AiSdkChatModel({ model: v2 }));
      expect(chunks).toEqual([
        { type: 'metadata', id: 'v2', model: 'old-model' },
        { type: 'text-delta', text: 'Hi' },
        {
          type: 'usage',
          usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7, cacheReadTokens: 3 },
        },
        { type: 'finish', reason: 'length' },
      ]);
      expect(calls[0]).toMatchObject({
        prompt: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
      });
    });
  });
});
