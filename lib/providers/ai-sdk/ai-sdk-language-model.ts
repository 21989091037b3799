import type {
  LanguageModelV2,
  LanguageModelV2CallOptions,
  LanguageModelV2StreamPart,
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';

/**
 * An AI SDK language model the bridge accepts: the `LanguageModelV3` specification (what
 * `@ai-sdk/*` provider packages 3.x implement, for `ai` 6, on Node 20) or the earlier
 * `LanguageModelV2` (provider packages 2.x, for `ai` 5).
 *
 * @example
 * ```ts
 * import { createGoogleGenerativeAI } from '@ai-sdk/google';
 * import type { AiSdkLanguageModel } from 'rx-advisors/ai-sdk';
 *
 * const model: AiSdkLanguageModel = createGoogleGenerativeAI({ apiKey: 'key' })('gemini-2.5-flash');
 * ```
 */
export type AiSdkLanguageModel = LanguageModelV3 | LanguageModelV2;

/** The specification versions the bridge supports, newest first. */
export const SUPPORTED_SPECIFICATION_VERSIONS = ['v3', 'v2'] as const;

/**
 * One stream part of either specification (V2 and V3 differ only in `finish`).
 * @internal
 */
export type AiSdkStreamPart = LanguageModelV3StreamPart | LanguageModelV2StreamPart;

/**
 * The call options the bridge builds: the V3 shape, which V2 models read the same way for
 * every field the bridge sets (prompt, tools, tool choice, response format, sampling).
 * @internal
 */
export type AiSdkCallOptions = LanguageModelV3CallOptions;

/**
 * Starts a streaming call on either specification.
 * @internal
 * @param model The AI SDK model.
 * @param options The call options (with the abort signal).
 * @returns The stream of parts.
 */
export async function openAiSdkStream(
  model: AiSdkLanguageModel,
  options: AiSdkCallOptions,
): Promise<ReadableStream<AiSdkStreamPart>> {
  if (model.specificationVersion === 'v3') return (await model.doStream(options)).stream;
  // V2's call options are V3's minus fields the bridge never sets (tool approval parts).
  const result = await model.doStream(options as unknown as LanguageModelV2CallOptions);
  return result.stream;
}

/**
 * The parts of a web `ReadableStream` as an async iterable (what `sdkEventStream` takes).
 * The reader is released (and the stream cancelled) when iteration stops early.
 * @internal
 * @param stream The stream.
 * @returns Its parts.
 */
export async function* readParts<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  let done = false;
  try {
    while (!done) {
      const result = await reader.read();
      done = result.done;
      if (!result.done) yield result.value;
    }
  } finally {
    // After an abort or an early return: cancel, so the provider's parser stops too.
    if (!done) await reader.cancel().catch(() => undefined);
  }
}
