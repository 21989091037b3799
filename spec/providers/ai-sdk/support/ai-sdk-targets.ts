import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createMistral } from '@ai-sdk/mistral';
// @ai-sdk/mistral 2.x (LanguageModelV2), installed under an alias next to 3.x.
import { createMistral as createMistralV2 } from '@ai-sdk/mistral-v2';
import { AiSdkChatModel } from '../../../../lib/providers/ai-sdk/ai-sdk-chat-model.js';
import type { AiSdkChatModelOptions } from '../../../../lib/providers/ai-sdk/ai-sdk-chat-model-options.js';
import type { ReplayServer, Reply } from '../../support/replay-server.js';

/** Where the recorded AI SDK provider streams live (see fixtures/README.md). */
export const AI_SDK_FIXTURES = join(__dirname, '..', 'fixtures');

/** Fake keys: tests assert that they never show up in an error message. */
export const GOOGLE_TEST_KEY = 'AIzaTestKey0123456789abcdef';
export const MISTRAL_TEST_KEY = 'mistral-test-key-0123456789abcdef';

/** The JSON payload lines of a recorded `.chunks.txt` file. */
export function fixtureLines(file: string): string[] {
  return readFileSync(join(AI_SDK_FIXTURES, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/** Payload lines as an SSE body (`data:` frames), as Gemini and Mistral send them. */
export function sseFrames(lines: readonly string[]): string {
  return lines.map((line) => `data: ${line}\n\n`).join('');
}

/** A recorded fixture as the SSE reply the provider would send. */
export function replay(file: string): Reply {
  return { kind: 'sse', body: sseFrames(fixtureLines(file)) };
}

type BridgeOptions = Omit<AiSdkChatModelOptions, 'model'>;

/** `@ai-sdk/google` (the real package) pointed at the loopback server. */
export function googleModel(
  server: ReplayServer,
  modelId = 'gemini-3-pro-preview',
  options: BridgeOptions = {},
): AiSdkChatModel {
  const google = createGoogleGenerativeAI({ apiKey: GOOGLE_TEST_KEY, baseURL: server.url });
  return new AiSdkChatModel({
    model: google(modelId),
    secrets: [GOOGLE_TEST_KEY],
    resolveModel: (id) => google(id),
    ...options,
  });
}

/** `@ai-sdk/mistral` (the real package) pointed at the loopback server. */
export function mistralModel(
  server: ReplayServer,
  modelId = 'mistral-small-latest',
  options: BridgeOptions = {},
): AiSdkChatModel {
  const mistral = createMistral({ apiKey: MISTRAL_TEST_KEY, baseURL: server.url });
  return new AiSdkChatModel({
    model: mistral(modelId),
    secrets: [MISTRAL_TEST_KEY],
    resolveModel: (id) => mistral(id),
    ...options,
  });
}

/** `@ai-sdk/mistral` 2.x (specification V2) pointed at the loopback server. */
export function mistralV2Model(
  server: ReplayServer,
  modelId = 'mistral-small-latest',
  options: BridgeOptions = {},
): AiSdkChatModel {
  const mistral = createMistralV2({ apiKey: MISTRAL_TEST_KEY, baseURL: server.url });
  return new AiSdkChatModel({
    model: mistral(modelId),
    secrets: [MISTRAL_TEST_KEY],
    resolveModel: (id) => mistral(id),
    ...options,
  });
}
