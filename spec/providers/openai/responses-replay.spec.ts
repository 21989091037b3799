import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { from, lastValueFrom } from 'rxjs';
import { aggregate } from '../../../lib/core/aggregate.js';
import { ChatRequest } from '../../../lib/core/chat-request.js';
import type { ChatResponse } from '../../../lib/core/chat-response.js';
import type { ToolCall } from '../../../lib/core/message.js';
import type { Usage } from '../../../lib/core/usage.js';
import { ProviderError } from '../../../lib/errors/provider-error.js';
import { OpenAiChatModel } from '../../../lib/providers/openai/index.js';
import { collect, failure, openAiClient } from '../support/clients.js';
import { FIXTURES_DIR, responsesRounds } from '../support/fixtures.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

interface ExpectedRound {
  text: string;
  reasoning?: string;
  toolCalls?: ToolCall[];
  usage: Usage;
  finishReason: ChatResponse['finishReason'];
  id: string;
}

const usage = (input: number, output: number): Usage => ({
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
  cacheReadTokens: 0,
  reasoningTokens: 0,
});

describe('OpenAiChatModel (responses) replaying recorded streams through the openai SDK', () => {
  let server: ReplayServer;
  let model: OpenAiChatModel;
  beforeAll(async () => {
    server = await startReplayServer();
    model = new OpenAiChatModel({
      client: openAiClient(server),
      model: 'gpt-test',
      api: 'responses',
    });
  });
  afterAll(() => server.close());

  const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

  async function replay(
    body: string,
  ): Promise<{ chunks: Awaited<ReturnType<typeof collect>>; response: ChatResponse }> {
    server.enqueue({ kind: 'sse', body });
    const chunks = await collect(model.stream(request));
    return { chunks, response: await lastValueFrom(from(chunks).pipe(aggregate())) };
  }

  it('covers every fixture in openai-responses/', () => {
    expect(readdirSync(join(FIXTURES_DIR, 'openai-responses')).sort()).toEqual([
      'azure-tool-call.1.chunks.txt',
      'openai-error.1.chunks.txt',
      'openai-reasoning-encrypted-content.1.chunks.txt',
    ]);
  });

  it('azure-tool-call.1.chunks.txt: a function call from argument deltas, with usage', async () => {
    const [body] = responsesRounds('azure-tool-call.1.chunks.txt');
    const { chunks, response } = await replay(body);
    expect(response.text).toBe('');
    expect(response.message.toolCalls).toEqual([
      {
        id: 'call_H5DxLSFnsGhiROnUiDHmgyc8',
        name: 'weather',
        arguments: '{"location":"San Francisco"}',
      },
    ]);
    expect(response.usage).toEqual(usage(45, 24));
    expect(response.finishReason).toBe('tool-calls');
    expect(response.metadata).toEqual({
      id: 'resp_04041325ab8ae30400698c519fb7fc81979972618138fc336d',
      model: 'gpt-5.1',
      rounds: 1,
    });
    // The argument deltas are streamed as tool-call-delta chunks before the complete call.
    const deltas = chunks.filter((chunk) => chunk.type === 'tool-call-delta');
    expect(deltas.map((chunk) => chunk.argumentsDelta).join('')).toBe(
      '{"location":"San Francisco"}',
    );
    expect(deltas[0]).toMatchObject({
      index: 0,
      id: 'call_H5DxLSFnsGhiROnUiDHmgyc8',
      name: 'weather',
    });
    expect(chunks[chunks.length - 1]).toEqual({ type: 'finish', reason: 'tool-calls' });
  });

  it('openai-error.1.chunks.txt: the error event becomes a ProviderError', async () => {
    const [body] = responsesRounds('openai-error.1.chunks.txt');
    server.enqueue({ kind: 'sse', body: body });
    const error = await failure(model.stream(request));
    expect(ProviderError.isInstance(error)).toBe(true);
    const providerError = error as ProviderError;
    expect(providerError.provider).toBe('openai');
    expect(providerError.status).toBeUndefined();
    expect(providerError.retryable).toBe(false);
    expect(providerError.message).toContain('insufficient_quota');
    expect(providerError.message).toContain('You exceeded your current quota');
    expect(providerError.cause).toBeInstanceOf(Error);
  });

  it('openai-reasoning-encrypted-content.1.chunks.txt: four recorded calls of a tool loop', async () => {
    const bodies = responsesRounds('openai-reasoning-encrypted-content.1.chunks.txt');
    expect(bodies).toHaveLength(4);
    const expected: ExpectedRound[] = [
      {
        text: '',
        reasoning:
          "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply " +
          'the result by 3, and finally multiply that by 10, reporting the final product.',
        toolCalls: [
          {
            id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn',
            name: 'calculator',
            arguments: '{"a":12,"b":7,"op":"add"}',
          },
        ],
        usage: usage(134, 28),
        finishReason: 'tool-calls',
        id: 'resp_01830d662ab3856501693c321345c88190b0de00f3b9975691',
      },
      {
        text: '',
        toolCalls: [
          {
            id: 'call_Q6pW65MUgW9vF59BmItYGos3',
            name: 'calculator',
            arguments: '{"a":19,"b":3,"op":"multiply"}',
          },
        ],
        usage: usage(221, 26),
        finishReason: 'tool-calls',
        id: 'resp_01830d662ab3856501693c3215903881909b710d150ff65014',
      },
      {
        text: '',
        toolCalls: [
          {
            id: 'call_Zl5vIMnD7dVAjgU6FkhmiCZh',
            name: 'calculator',
            arguments: '{"a":57,"b":10,"op":"multiply"}',
          },
        ],
        usage: usage(260, 26),
        finishReason: 'tool-calls',
        id: 'resp_01830d662ab3856501693c3216bef88190bf0e034cff24137b',
      },
      {
        text: 'The final result is **570**.',
        usage: usage(299, 12),
        finishReason: 'stop',
        id: 'resp_01830d662ab3856501693c3217ba4c8190a3ddf6c839d4f12a',
      },
    ];
    for (const [round, body] of bodies.entries()) {
      const { response } = await replay(body);
      const want = expected[round];
      expect(response.text).toBe(want.text);
      expect(response.reasoning).toBe(want.reasoning);
      expect(response.message.toolCalls).toEqual(want.toolCalls);
      expect(response.usage).toEqual(want.usage);
      expect(response.finishReason).toBe(want.finishReason);
      expect(response.metadata).toEqual({ id: want.id, model: 'gpt-5.1-codex-max', rounds: 1 });
      if (round === 0) {
        // The reasoning item comes back as one block holding its final encrypted content.
        expect(response.message.reasoning).toHaveLength(1);
        expect(response.message.reasoning?.[0]?.text).toBe(want.reasoning);
        expect(response.message.reasoning?.[0]?.id).toBe(
          'rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9',
        );
        expect(response.message.reasoning?.[0]?.encryptedContent).toMatch(/^gAAAAABpPDIVOKrsHNZ0/);
        expect(response.message.reasoning?.[0]?.redactedData).toBeUndefined();
      } else {
        expect(response.message.reasoning).toBeUndefined();
      }
    }
  });
});
