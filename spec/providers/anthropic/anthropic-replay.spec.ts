import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { from, lastValueFrom } from 'rxjs';
import { aggregate } from '../../../lib/core/aggregate.js';
import { ChatRequest } from '../../../lib/core/chat-request.js';
import type { ChatResponse } from '../../../lib/core/chat-response.js';
import type { ReasoningPart, ToolCall } from '../../../lib/core/message.js';
import type { Usage } from '../../../lib/core/usage.js';
import { AnthropicChatModel } from '../../../lib/providers/anthropic/index.js';
import { anthropicClient, collect } from '../support/clients.js';
import { FIXTURES_DIR, sseBody } from '../support/fixtures.js';
import { startReplayServer, type ReplayServer } from '../support/replay-server.js';

// Real HTTP on a busy machine: allow more than jest's default 5 s per test.
jest.setTimeout(20_000);

interface Expected {
  text: string;
  reasoning?: string;
  reasoningParts?: ReasoningPart[];
  toolCalls?: ToolCall[];
  /** How many complete `tool-call` chunks the stream has. */
  completeToolCalls: number;
  usage: Usage;
  finishReason: ChatResponse['finishReason'];
  id: string;
  model: string;
}

/** The signature the clear-thinking fixture sends, read from the file itself. */
function fixtureSignature(): string {
  const line = readFileSync(
    join(FIXTURES_DIR, 'anthropic', 'vercel-anthropic-clear-thinking.1.chunks.txt'),
    'utf8',
  )
    .split('\n')
    .find((l) => l.includes('signature_delta'))!;
  return (JSON.parse(line) as { delta: { signature: string } }).delta.signature;
}

const cases: Record<string, Expected> = {
  'sdk-basic_response.sse': {
    text: 'Hello there!',
    completeToolCalls: 0,
    // message_start reports no cache fields: they stay undefined.
    usage: { inputTokens: 11, outputTokens: 6, totalTokens: 17 },
    finishReason: 'stop',
    id: 'msg_4QpJur2dWWDjF6C758FbBw5vm12BaVipnK',
    model: 'claude-opus-4-8',
  },
  'sdk-tool_use_response.sse': {
    text: "I'll check the current weather in Paris for you.",
    toolCalls: [
      {
        id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn',
        name: 'get_weather',
        arguments: '{"location": "Paris"}',
      },
    ],
    completeToolCalls: 1,
    usage: {
      inputTokens: 377,
      outputTokens: 65,
      totalTokens: 442,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    },
    finishReason: 'tool-calls',
    id: 'msg_019Q1hrJbZG26Fb9BQhrkHEr',
    model: 'claude-opus-4-8',
  },
  'sdk-incomplete_partial_json_response.sse': {
    text:
      "I'll create a comprehensive tax guide for someone with multiple W2s and save it in a " +
      'file called taxes.txt. Let me do that for you now.',
    // Cut off by max_tokens: no complete tool-call chunk, only the fragments, which
    // aggregate() still assembles so the caller can see what was cut.
    toolCalls: [
      {
        id: 'toolu_01EKqbqmZrGRXy18eN7m9kvY',
        name: 'make_file',
        arguments:
          '{"filename": "taxes.txt", "lines_of_text": [\n"# COMPREHENSIVE TAX GUIDE FOR INDIVIDUALS ' +
          'WITH MULTIPLE W-2s",\n"",\n"## INTRODUCTION",\n"",\n"Filing taxes',
      },
    ],
    completeToolCalls: 0,
    usage: {
      inputTokens: 450,
      outputTokens: 124,
      totalTokens: 574,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    },
    finishReason: 'length',
    id: 'msg_01UdjYBBipA9omjYhicnevgq',
    model: 'claude-sonnet-4-5',
  },
  'vercel-anthropic-text.chunks.txt': {
    text:
      "Hello! I'm doing well, thank you for asking. How are you doing today? Is there " +
      'anything I can help you with?',
    completeToolCalls: 0,
    usage: {
      inputTokens: 12,
      outputTokens: 30,
      totalTokens: 42,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    },
    finishReason: 'stop',
    id: 'msg_01QC4g3HwBThD4BaNtBckFDJ',
    model: 'claude-sonnet-4-5-20250929',
  },
  'vercel-anthropic-tool-no-args.chunks.txt': {
    text: "I'll update the issue list for you.",
    // No input_json_delta content at all: the arguments are the empty object.
    toolCalls: [{ id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', arguments: '{}' }],
    completeToolCalls: 1,
    usage: {
      inputTokens: 565,
      outputTokens: 48,
      totalTokens: 613,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    },
    finishReason: 'tool-calls',
    id: 'msg_01GE2RKp1VYsPzdFs3sS9z5S',
    model: 'claude-sonnet-4-5-20250929',
  },
  'vercel-anthropic-json-other-tool.1.chunks.txt': {
    text: '',
    toolCalls: [
      {
        id: 'toolu_019Zvehfe1XQWweT1pm7okyt',
        name: 'weather',
        arguments: '{"location": "San Francisco"}',
      },
    ],
    completeToolCalls: 1,
    usage: {
      inputTokens: 843,
      outputTokens: 28,
      totalTokens: 871,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    },
    finishReason: 'tool-calls',
    id: 'msg_01CD3XaZfhNabxRt1SG5ybtK',
    model: 'claude-haiku-4-5-20251001',
  },
  'vercel-anthropic-json-tool.2.chunks.txt': {
    text: "I'll invoke the JSON response tool.",
    toolCalls: [
      {
        id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA',
        name: 'json',
        arguments:
          '{"elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]}',
      },
    ],
    completeToolCalls: 1,
    usage: {
      inputTokens: 849,
      outputTokens: 47,
      totalTokens: 896,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    },
    finishReason: 'tool-calls',
    id: 'msg_01K2JbSUMYhez5RHoK9ZCj9U',
    model: 'claude-haiku-4-5-20251001',
  },
  'vercel-anthropic-message-delta-input-tokens.chunks.txt': {
    text: 'pong',
    completeToolCalls: 0,
    // message_delta's counts are cumulative: its input_tokens (61) replaces message_start's (43).
    usage: { inputTokens: 61, outputTokens: 2, totalTokens: 63 },
    finishReason: 'stop',
    id: 'msg_3196a1cc08de4d76b85b8f5777c0d42b',
    model: 'claude-opus-4-5-20251101',
  },
  'vercel-anthropic-clear-thinking.1.chunks.txt': {
    text: '925 ÷ 5 = 185',
    reasoning: 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185',
    reasoningParts: [
      {
        text: 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185',
        signature: fixtureSignature(),
      },
    ],
    completeToolCalls: 0,
    usage: {
      inputTokens: 69,
      outputTokens: 53,
      totalTokens: 122,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    },
    finishReason: 'stop',
    id: 'msg_01Y6V41gqPaKWEw7iPouH7iW',
    model: 'claude-sonnet-4-5-20250929',
  },
  'vercel-anthropic-refusal.chunks.txt': {
    text: '',
    completeToolCalls: 0,
    usage: {
      inputTokens: 18,
      outputTokens: 5,
      totalTokens: 23,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    },
    finishReason: 'content-filter',
    id: 'msg_01RefusalStreamAbcdefghijk',
    model: 'claude-fable-5',
  },
};

describe('AnthropicChatModel replaying recorded streams through @anthropic-ai/sdk', () => {
  let server: ReplayServer;
  beforeAll(async () => {
    server = await startReplayServer();
  });
  afterAll(() => server.close());

  const request = ChatRequest.create({ messages: [{ role: 'user', content: 'Hi' }] });

  it('has a case for every fixture in anthropic/', () => {
    expect(readdirSync(join(FIXTURES_DIR, 'anthropic')).sort()).toEqual(Object.keys(cases).sort());
  });

  it.each(Object.entries(cases))('%s', async (file, expected) => {
    server.enqueue({ kind: 'sse', body: sseBody('anthropic', file) });
    const model = new AnthropicChatModel({
      client: anthropicClient(server),
      model: 'claude-test',
      maxTokens: 256,
    });

    const chunks = await collect(model.stream(request));
    const response = await lastValueFrom(from(chunks).pipe(aggregate()));

    expect(response.text).toBe(expected.text);
    expect(response.reasoning).toBe(expected.reasoning);
    expect(response.message.reasoning).toEqual(expected.reasoningParts);
    expect(response.message.toolCalls).toEqual(expected.toolCalls);
    expect(chunks.filter((chunk) => chunk.type === 'tool-call')).toHaveLength(
      expected.completeToolCalls,
    );
    expect(response.usage).toEqual(expected.usage);
    expect(response.finishReason).toBe(expected.finishReason);
    expect(response.metadata).toEqual({ id: expected.id, model: expected.model, rounds: 1 });
    expect(chunks.filter((chunk) => chunk.type === 'usage')).toHaveLength(1);
    expect(chunks[chunks.length - 1]?.type).toBe('finish');
  });
});
