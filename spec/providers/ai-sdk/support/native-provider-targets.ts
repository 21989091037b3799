// The native adapters as targets of the shared provider cases, over the recorded streams
// of /work/shared/fixtures (see its README for their sources and licences).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnthropicChatModel } from '../../../../lib/providers/anthropic/index.js';
import { OpenAiChatModel } from '../../../../lib/providers/openai/index.js';
import {
  ANTHROPIC_TEST_KEY,
  anthropicClient,
  OPENAI_TEST_KEY,
  openAiClient,
} from '../../support/clients.js';
import { FIXTURES_DIR, responsesRounds, sseBody } from '../../support/fixtures.js';
import type { RecordedRequest, WireJson } from '../../support/replay-server.js';
import type { ProviderTarget } from './provider-cases.js';

const header = (request: RecordedRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The text of one delta field over every line of a Chat Completions fixture. */
function chatDeltas(file: string, field: 'content' | 'reasoning_content'): string {
  return readFileSync(join(FIXTURES_DIR, 'openai-chat', file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const chunk = JSON.parse(line) as { choices?: { delta?: Record<string, unknown> }[] };
      const value = chunk.choices?.[0]?.delta?.[field];
      return typeof value === 'string' ? value : '';
    })
    .join('');
}

/** `OpenAiChatModel` (Chat Completions) over the official `openai` SDK. */
export const OPENAI_CHAT_TARGET: ProviderTarget = {
  name: 'OpenAiChatModel (Chat Completions)',
  model: (server, options = {}) =>
    new OpenAiChatModel({ client: openAiClient(server), model: 'gpt-4.1-nano', ...options }),
  key: OPENAI_TEST_KEY,
  text: {
    reply: () => ({ kind: 'sse', body: sseBody('openai-chat', 'openai-text.chunks.txt') }),
    text: chatDeltas('openai-text.chunks.txt', 'content'),
    id: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0',
    model: 'gpt-4.1-nano-2025-04-14',
    usage: {
      inputTokens: 16,
      outputTokens: 300,
      totalTokens: 316,
      cacheReadTokens: 0,
      reasoningTokens: 0,
    },
  },
  toolCall: {
    reply: () => ({ kind: 'sse', body: sseBody('openai-chat', 'xai-tool-call.chunks.txt') }),
    name: 'weather',
    arguments: { location: 'San Francisco' },
  },
  reasoning: {
    reply: () => ({ kind: 'sse', body: sseBody('openai-chat', 'deepseek-tool-call.chunks.txt') }),
    text: chatDeltas('deepseek-tool-call.chunks.txt', 'reasoning_content'),
  },
  errorBody: (status, message) => ({
    error: {
      message,
      type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error',
      code: null,
    },
  }),
  sentKey: (request) => header(request, 'authorization')?.replace(/^Bearer /, ''),
  wireResponseSchema: (body: WireJson): WireJson => body.response_format.json_schema.schema,
  wireToolNames: (body: WireJson) =>
    (body.tools as { function: { name: string } }[]).map((tool) => tool.function.name),
  wireInlineImage: (body: WireJson): string =>
    String(
      body.messages.at(-1).content.find((part: WireJson) => part.type === 'image_url').image_url
        .url,
    ),
};

/** `AnthropicChatModel` over the official `@anthropic-ai/sdk`. */
export const ANTHROPIC_TARGET: ProviderTarget = {
  name: 'AnthropicChatModel',
  model: (server, options = {}) =>
    new AnthropicChatModel({
      client: anthropicClient(server),
      model: 'claude-sonnet-4-5',
      ...options,
    }),
  key: ANTHROPIC_TEST_KEY,
  text: {
    reply: () => ({ kind: 'sse', body: sseBody('anthropic', 'vercel-anthropic-text.chunks.txt') }),
    text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    id: 'msg_01QC4g3HwBThD4BaNtBckFDJ',
    model: 'claude-sonnet-4-5-20250929',
    usage: {
      inputTokens: 12,
      outputTokens: 30,
      totalTokens: 42,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    },
  },
  toolCall: {
    reply: () => ({ kind: 'sse', body: sseBody('anthropic', 'sdk-tool_use_response.sse') }),
    name: 'get_weather',
    arguments: { location: 'Paris' },
  },
  reasoning: {
    reply: () => ({
      kind: 'sse',
      body: sseBody('anthropic', 'vercel-anthropic-clear-thinking.1.chunks.txt'),
    }),
    text: 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185',
  },
  errorBody: (status, message) => ({
    type: 'error',
    error: { type: status === 429 ? 'rate_limit_error' : 'invalid_request_error', message },
  }),
  // @anthropic-ai/sdk 1.x sends the key as a bearer token (0.x as x-api-key).
  sentKey: (request) =>
    header(request, 'x-api-key') ?? header(request, 'authorization')?.replace(/^Bearer /, ''),
  wireResponseSchema: (body: WireJson): WireJson => body.output_config.format.schema,
  wireToolNames: (body: WireJson) => (body.tools as { name: string }[]).map((tool) => tool.name),
  wireInlineImage: (body: WireJson): string =>
    String(
      body.messages.at(-1).content.find((block: WireJson) => block.type === 'image').source.data,
    ),
};

/** One recorded Responses API call (a file may hold several, one per tool-loop round). */
const responsesCall = (file: string, round: number) => () => ({
  kind: 'sse' as const,
  body: responsesRounds(file)[round],
});

/** `OpenAiChatModel` with `api: 'responses'` over the official `openai` SDK. */
export const OPENAI_RESPONSES_TARGET: ProviderTarget = {
  ...OPENAI_CHAT_TARGET,
  name: 'OpenAiChatModel (Responses API)',
  model: (server, options = {}) =>
    new OpenAiChatModel({
      client: openAiClient(server),
      model: 'gpt-5.1',
      api: 'responses',
      ...options,
    }),
  text: {
    reply: responsesCall('openai-reasoning-encrypted-content.1.chunks.txt', 3),
    text: 'The final result is **570**.',
    id: 'resp_01830d662ab3856501693c3217ba4c8190a3ddf6c839d4f12a',
    model: 'gpt-5.1-codex-max',
    usage: {
      inputTokens: 299,
      outputTokens: 12,
      totalTokens: 311,
      cacheReadTokens: 0,
      reasoningTokens: 0,
    },
  },
  toolCall: {
    reply: responsesCall('azure-tool-call.1.chunks.txt', 0),
    name: 'weather',
    arguments: { location: 'San Francisco' },
  },
  reasoning: {
    reply: responsesCall('openai-reasoning-encrypted-content.1.chunks.txt', 0),
    text: "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.",
  },
  wireResponseSchema: (body: WireJson): WireJson => body.text.format.schema,
  wireToolNames: (body: WireJson) => (body.tools as { name: string }[]).map((tool) => tool.name),
  wireInlineImage: (body: WireJson): string =>
    String(
      body.input.at(-1).content.find((part: WireJson) => part.type === 'input_image').image_url,
    ),
};

/** The native adapters that run the shared cases. */
export const NATIVE_TARGETS: readonly ProviderTarget[] = [
  OPENAI_CHAT_TARGET,
  OPENAI_RESPONSES_TARGET,
  ANTHROPIC_TARGET,
];
