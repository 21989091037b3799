import type { ChatOptions } from '../../core/chat-options.js';
import { Rules, type OptionRules } from '../../core/validate-options.js';
import { DEFAULT_IDLE_TIMEOUT, idleTimeoutRule } from '../kit/index.js';
import type { AiSdkLanguageModel } from './ai-sdk-language-model.js';

/**
 * Options of `AiSdkChatModel`.
 * @example
 * ```ts
 * import { createMistral } from '@ai-sdk/mistral';
 * import type { AiSdkChatModelOptions } from 'rx-advisors/ai-sdk';
 *
 * const mistral = createMistral({ apiKey: 'key' });
 * const options: AiSdkChatModelOptions = {
 *   model: mistral('mistral-small-latest'),
 *   resolveModel: (id) => mistral(id),
 *   options: { temperature: 0.2 },
 *   secrets: ['key'],
 * };
 * ```
 */
export interface AiSdkChatModelOptions {
  /**
   * The AI SDK language model you constructed (`google('gemini-2.5-flash')`); its key,
   * base URL, headers and fetch are yours. Specification V3 (provider packages 3.x) or V2.
   */
  model: AiSdkLanguageModel;
  /**
   * Gives the model a request's `options.model` names, when it differs from `model`'s
   * `modelId` (e.g. `(id) => google(id)`). Without it such a request fails with an
   * `InvalidOptionsError` before anything is sent: an AI SDK model object is fixed.
   */
  resolveModel?: (modelId: string) => AiSdkLanguageModel;
  /** Default options of every call; the request's options win field by field. */
  options?: ChatOptions;
  /** Reported as `ChatModel.provider` and in errors; default: the model's `provider` (`'google.generative-ai'`). */
  provider?: string;
  /**
   * Milliseconds a call may go without a stream part (before the first one, and between
   * two) before it fails with a retryable `ProviderIdleTimeoutError` and the HTTP request
   * is aborted; `Infinity` turns it off. Default 120 000.
   */
  idleTimeout?: number;
  /**
   * Strings that must never appear in an error message (your API key): an AI SDK model
   * does not expose its key, so the bridge cannot find it itself. Default none (`sk-…`
   * keys and bearer tokens are redacted anyway).
   */
  secrets?: readonly string[];
}

/**
 * The defaults of {@link AiSdkChatModelOptions}.
 * @internal
 */
export const AI_SDK_CHAT_MODEL_DEFAULTS: Readonly<
  Required<Pick<AiSdkChatModelOptions, 'idleTimeout' | 'secrets'>>
> = {
  idleTimeout: DEFAULT_IDLE_TIMEOUT,
  secrets: [],
};

/**
 * The rules of {@link AiSdkChatModelOptions} (`model` is checked on its own).
 * @internal
 */
export const AI_SDK_CHAT_MODEL_RULES: OptionRules<AiSdkChatModelOptions> = {
  resolveModel: Rules.func,
  provider: Rules.nonEmptyString,
  idleTimeout: idleTimeoutRule,
  secrets: Rules.custom(
    'an array of strings',
    (value) => Array.isArray(value) && value.every((item) => typeof item === 'string'),
  ),
};
