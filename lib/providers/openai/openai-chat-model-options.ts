import type OpenAI from 'openai';
import type { ChatOptions } from '../../core/chat-options.js';
import { Rules, type OptionRules } from '../../core/validate-options.js';
import { DEFAULT_IDLE_TIMEOUT, idleTimeoutRule } from '../kit/index.js';

/**
 * Which OpenAI API the model streams from: `'chat'` (Chat Completions) or `'responses'`.
 * @example
 * ```ts
 * import type { OpenAiApi } from 'rx-advisors/openai';
 * const api: OpenAiApi = 'responses';
 * ```
 */
export type OpenAiApi = 'chat' | 'responses';

/**
 * Options of {@link OpenAiChatModel}.
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import type { OpenAiChatModelOptions } from 'rx-advisors/openai';
 *
 * const options: OpenAiChatModelOptions = {
 *   client: new OpenAI({ maxRetries: 3 }),
 *   model: 'gpt-4o-mini',
 *   api: 'chat',
 *   options: { temperature: 0 },
 * };
 * ```
 */
export interface OpenAiChatModelOptions {
  /** The `openai` client you constructed (key, `baseURL`, retries, proxy are yours). */
  client: OpenAI;
  /** The model name, e.g. `'gpt-4o-mini'`; a request's `options.model` overrides it. */
  model: string;
  /** `'chat'` (Chat Completions, default; also every OpenAI-compatible server) or `'responses'`. */
  api?: OpenAiApi;
  /** Default options of every call; the request's options win field by field. */
  options?: ChatOptions;
  /** Reported as `ChatModel.provider` and in errors; default `'openai'`. */
  provider?: string;
  /**
   * Where Chat Completions sends `maxTokens`: `'max_completion_tokens'` (default, what
   * OpenAI wants and reasoning models require) or `'max_tokens'` (older compatible servers).
   */
  maxTokensField?: 'max_completion_tokens' | 'max_tokens';
  /**
   * Ask Chat Completions for usage (`stream_options.include_usage`); default `true`. Turn
   * it off only for a compatible server that rejects the field.
   */
  includeUsage?: boolean;
  /**
   * Responses API only: ask for each reasoning item's encrypted content
   * (`include: ['reasoning.encrypted_content']`), so that the tool loop can send the
   * reasoning back without server-side state. `true` always, `false` never; by default
   * only when the call sends `store: false` or a `reasoning` configuration (through
   * `options.extra`), because models without reasoning (gpt-4o, gpt-4.1) reject the field.
   *
   * @example
   * ```ts
   * import OpenAI from 'openai';
   * import { OpenAiChatModel } from 'rx-advisors/openai';
   *
   * // Zero data retention: nothing is stored, reasoning goes back encrypted.
   * const model = new OpenAiChatModel({
   *   client: new OpenAI(),
   *   model: 'gpt-5.1',
   *   api: 'responses',
   *   includeEncryptedReasoning: true,
   *   options: { extra: { store: false } },
   * });
   * ```
   */
  includeEncryptedReasoning?: boolean;
  /**
   * Milliseconds a call may go without a stream event (before the first one, and between
   * two) before it fails with a retryable `ProviderIdleTimeoutError` and the HTTP request
   * is aborted; `Infinity` turns it off. Default 120 000 (see `DEFAULT_IDLE_TIMEOUT` in
   * `rx-advisors/provider-kit`). The SDK's own `timeout` does not cover a stream that
   * stalls after its headers; this does.
   */
  idleTimeout?: number;
}

/**
 * The defaults of {@link OpenAiChatModelOptions}.
 * @internal
 */
export const OPENAI_CHAT_MODEL_DEFAULTS: Readonly<
  Required<
    Pick<
      OpenAiChatModelOptions,
      'api' | 'provider' | 'maxTokensField' | 'includeUsage' | 'idleTimeout'
    >
  >
> = {
  api: 'chat',
  provider: 'openai',
  maxTokensField: 'max_completion_tokens',
  includeUsage: true,
  idleTimeout: DEFAULT_IDLE_TIMEOUT,
};

const nonBlank = Rules.custom(
  'a non-empty string',
  (value) => typeof value === 'string' && value.trim() !== '',
);

/**
 * The rules of {@link OpenAiChatModelOptions} (the client is checked against the API).
 * @internal
 */
export const OPENAI_CHAT_MODEL_RULES: OptionRules<OpenAiChatModelOptions> = {
  api: Rules.oneOf('chat', 'responses'),
  model: Rules.required(Rules.custom("a model name such as 'gpt-4o-mini'", nonBlank.test)),
  provider: nonBlank,
  maxTokensField: Rules.oneOf('max_completion_tokens', 'max_tokens'),
  includeUsage: Rules.boolean,
  includeEncryptedReasoning: Rules.boolean,
  idleTimeout: idleTimeoutRule,
};
