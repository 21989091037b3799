// The two AI SDK providers as targets of the shared provider cases.
import type { RecordedRequest, WireJson } from '../../support/replay-server.js';
import {
  GOOGLE_TEST_KEY,
  googleModel,
  MISTRAL_TEST_KEY,
  mistralModel,
  mistralV2Model,
  replay,
} from './ai-sdk-targets.js';
import type { ProviderTarget } from './provider-cases.js';

const header = (request: RecordedRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Gemini through `@ai-sdk/google` 3.x (LanguageModelV3), recorded streams of gemini-3-pro-preview. */
export const GOOGLE_TARGET: ProviderTarget = {
  name: '@ai-sdk/google',
  model: (server, options = {}) => googleModel(server, 'gemini-3-pro-preview', options),
  key: GOOGLE_TEST_KEY,
  text: {
    reply: () => replay('google-text.chunks.txt'),
    text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y',
    id: 'bH6LaZW8Fp_3nsEPqtaSwQ4',
    model: 'gemini-3-pro-preview',
    // candidatesTokenCount 23 + thoughtsTokenCount 185 = 208 output tokens.
    usage: {
      inputTokens: 9,
      outputTokens: 208,
      totalTokens: 217,
      cacheReadTokens: 0,
      reasoningTokens: 185,
    },
  },
  toolCall: {
    reply: () => replay('google-tool-call-gemini3.chunks.txt'),
    name: 'weather',
    arguments: { location: 'San Francisco' },
  },
  reasoning: {
    reply: () => replay('google-stream-no-args-tool-call.chunks.txt'),
    text: '**Processing User Requests**\n\nI\'ve started by understanding the user\'s instructions. Currently, I\'m focusing on the initial steps: reading the specified theme using the appropriate tool. Next, I plan to tackle reading the screens, beginning with screen "A," then proceeding with "B" and "C" in parallel as instructed.\n\n\n',
  },
  errorBody: (status, message) => ({
    error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INVALID' },
  }),
  sentKey: (request) => header(request, 'x-goog-api-key'),
  wireResponseSchema: (body: WireJson): WireJson => body.generationConfig.responseSchema,
  wireToolNames: (body: WireJson) =>
    (body.tools[0].functionDeclarations as { name: string }[]).map((tool) => tool.name),
  wireInlineImage: (body: WireJson): string =>
    String(
      body.contents.at(-1).parts.find((part: WireJson) => part.inlineData !== undefined).inlineData
        .data,
    ),
};

/** Mistral through `@ai-sdk/mistral` 3.x (LanguageModelV3), recorded streams. */
export const MISTRAL_TARGET: ProviderTarget = {
  name: '@ai-sdk/mistral',
  model: (server, options = {}) => mistralModel(server, 'mistral-small-latest', options),
  key: MISTRAL_TEST_KEY,
  text: {
    reply: () => replay('mistral-text.chunks.txt'),
    text: 'Hello, world! This is a test response.',
    id: '5319bd0299614c679a0068a4f2c8ffd0',
    model: 'mistral-small-latest',
    usage: { inputTokens: 13, outputTokens: 8, totalTokens: 21 },
  },
  toolCall: {
    reply: () => replay('mistral-tool-call.chunks.txt'),
    name: 'weather',
    arguments: { location: 'San Francisco' },
  },
  reasoning: {
    reply: () => replay('mistral-reasoning.chunks.txt'),
    text: 'The user is asking for 2+2. This is basic arithmetic. 2+2=4.',
  },
  errorBody: (status, message) => ({
    object: 'error',
    message,
    type: status === 429 ? 'rate_limited' : 'invalid_request_error',
    param: null,
    code: String(status),
  }),
  sentKey: (request) => header(request, 'authorization')?.replace(/^Bearer /, ''),
  wireResponseSchema: (body: WireJson): WireJson => body.response_format.json_schema.schema,
  wireToolNames: (body: WireJson) =>
    (body.tools as { function: { name: string } }[]).map((tool) => tool.function.name),
  wireInlineImage: (body: WireJson): string =>
    String(
      body.messages.at(-1).content.find((part: WireJson) => part.type === 'image_url').image_url,
    ),
};

/** The same recordings through `@ai-sdk/mistral` 2.x (LanguageModelV2). */
export const MISTRAL_V2_TARGET: ProviderTarget = {
  ...MISTRAL_TARGET,
  name: '@ai-sdk/mistral 2.x (V2)',
  model: (server, options = {}) => mistralV2Model(server, 'mistral-small-latest', options),
};

/** Every AI SDK target of the shared cases. */
export const AI_SDK_TARGETS: readonly ProviderTarget[] = [
  GOOGLE_TARGET,
  MISTRAL_TARGET,
  MISTRAL_V2_TARGET,
];
