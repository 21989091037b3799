import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { from, lastValueFrom } from 'rxjs';
import { aggregate } from '../../../lib/core/aggregate.js';
import { ChatRequest } from '../../../lib/core/chat-request.js';
import type { ChatResponse } from '../../../lib/core/chat-response.js';
import type { ToolCall } from '../../../lib/core/message.js';
import type { Usage } from '../../../lib/core/usage.js';
import { OpenAiChatModel } from '../../../lib/providers/openai/index.js';
import { collect, openAiClient } from '../support/clients.js';
import { FIXTURES_DIR, sseBody } from '../support/fixtures.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

interface Expected {
  text: string;
  reasoning?: string;
  toolCalls?: ToolCall[];
  usage: Usage;
  finishReason: ChatResponse['finishReason'];
  id: string;
  model: string;
}

/** Concatenates one delta field over a fixture: an oracle independent of the adapter. */
function deltaText(file: string, field: 'content' | 'reasoning_content'): string {
  return readFileSync(join(FIXTURES_DIR, 'openai-chat', file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { choices: { delta?: Record<string, unknown> }[] })
    .map((chunk) => chunk.choices[0]?.delta?.[field])
    .filter((value): value is string => typeof value === 'string')
    .join('');
}

const cases: Record<string, Expected> = {
  'openai-text.chunks.txt': {
    text: deltaText('openai-text.chunks.txt', 'content'),
    usage: {
      inputTokens: 16,
      outputTokens: 300,
      totalTokens: 316,
      cacheReadTokens: 0,
      reasoningTokens: 0,
    },
    finishReason: 'stop',
    id: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0',
    model: 'gpt-4.1-nano-2025-04-14',
  },
  'azure-model-router.1.chunks.txt': {
    text: 'Capital of Denmark.',
    usage: {
      inputTokens: 15,
      outputTokens: 78,
      totalTokens: 93,
      cacheReadTokens: 0,
      reasoningTokens: 64,
    },
    finishReason: 'stop',
    // The first chunk (prompt filter results) has an empty id; the metadata comes from the next.
    id: 'chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt',
    model: 'gpt-5-nano-2025-08-07',
  },
  'openai-node-structured-json.sse': {
    text: '{"city":"San Francisco","units":"c"}',
    usage: { inputTokens: 17, outputTokens: 10, totalTokens: 27 },
    finishReason: 'stop',
    id: 'chatcmpl-9tZXEmwtoDf6vqCqEWSvDP8jx9OXe',
    model: 'gpt-4o-2024-08-06',
  },
  'openai-node-refusal.sse': {
    // Refusals are surfaced as the answer text, with finish reason 'content-filter'.
    text: "I'm very sorry, but I can't assist with that request.",
    usage: { inputTokens: 17, outputTokens: 13, totalTokens: 30 },
    finishReason: 'content-filter',
    id: 'chatcmpl-9tZXGacdbmJYO8K50haE4OauaJmPn',
    model: 'gpt-4o-2024-08-06',
  },
  'deepseek-tool-call.chunks.txt': {
    text: '',
    reasoning: deltaText('deepseek-tool-call.chunks.txt', 'reasoning_content'),
    toolCalls: [
      {
        id: 'call_00_ioIn7yN9p1ZOMNpDLwd4MgAF',
        name: 'weather',
        arguments: '{"location": "San Francisco"}',
      },
    ],
    usage: {
      inputTokens: 339,
      outputTokens: 83,
      totalTokens: 422,
      cacheReadTokens: 320,
      reasoningTokens: 39,
    },
    finishReason: 'tool-calls',
    id: 'cca85624-4056-401f-b220-d77601d1f70d',
    model: 'deepseek-reasoner',
  },
  'xai-tool-call.chunks.txt': {
    text: '',
    reasoning: deltaText('xai-tool-call.chunks.txt', 'reasoning_content'),
    toolCalls: [
      { id: 'call_79382389', name: 'weather', arguments: '{"location":"San Francisco"}' },
    ],
    // xAI's total counts reasoning tokens that completion_tokens does not: reported as sent.
    usage: {
      inputTokens: 307,
      outputTokens: 26,
      totalTokens: 560,
      cacheReadTokens: 306,
      reasoningTokens: 227,
    },
    finishReason: 'tool-calls',
    id: '7027d986-3c59-a37a-9a5f-50713e01c8a6',
    model: 'grok-3-mini',
  },
  'groq-tool-call.chunks.txt': {
    text: '',
    toolCalls: [{ id: 'tk85n1k4m', name: 'weather', arguments: '{}' }],
    usage: { inputTokens: 210, outputTokens: 15, totalTokens: 225 },
    finishReason: 'tool-calls',
    id: 'chatcmpl-b610d559-f156-4aca-8827-24b4fe6af54f',
    model: 'llama-3.3-70b-versatile',
  },
  'mistral-incremental-tool-call.chunks.txt': {
    text: '',
    // The second fragment repeats `name: ""`: the name from the first fragment is kept.
    toolCalls: [
      {
        id: 'chatcmpl-tool-9f149c74c42f265b',
        name: 'webSearchTool',
        arguments: '{"query": "current Berlin weather"}',
      },
    ],
    usage: { inputTokens: 171, outputTokens: 14, totalTokens: 185, cacheReadTokens: 128 },
    finishReason: 'tool-calls',
    id: '735e434874a24f68a2390b3cab149242',
    model: 'zai-glm-5-2',
  },
};

describe('OpenAiChatModel (chat) replaying recorded streams through the openai SDK', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

  it('has a case for every fixture in openai-chat/', () => {
    expect(readdirSync(join(FIXTURES_DIR, 'openai-chat')).sort()).toEqual(
      Object.keys(cases).sort(),
    );
  });

  it.each(Object.entries(cases))('%s', async (file, expected) => {
    server.enqueue({ kind: 'sse', body: sseBody('openai-chat', file) });
    const model = new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-test' });

    const chunks = await collect(model.stream(request));
    const aggregated = await lastValueFrom(from(chunks).pipe(aggregate()));
    expect(aggregated.text).toBe(expected.text);
    expect(aggregated.reasoning).toBe(expected.reasoning);
    expect(aggregated.message.toolCalls).toEqual(expected.toolCalls);
    expect(aggregated.usage).toEqual(expected.usage);
    expect(aggregated.finishReason).toBe(expected.finishReason);
    expect(aggregated.metadata).toEqual({ id: expected.id, model: expected.model, rounds: 1 });
    // One usage chunk per call, and the finish chunk last.
    expect(chunks.filter((chunk) => chunk.type === 'usage')).toHaveLength(1);
    expect(chunks.filter((chunk) => chunk.type === 'finish')).toHaveLength(1);
    expect(chunks[chunks.length - 1]?.type).toBe('finish');
  });
});
