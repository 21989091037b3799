import type Anthropic from '@anthropic-ai/sdk';
import { defer, type Observable } from 'rxjs';
import type { ChatChunk } from '../../core/chat-chunk.js';
import type { ChatModel } from '../../core/chat-model.js';
import type { ChatOptions } from '../../core/chat-options.js';
import type { ChatRequest } from '../../core/chat-request.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import {
  clientSecrets,
  DEFAULT_IDLE_TIMEOUT,
  idleTimeoutRule,
  mergeOptions,
  sdkEventStream,
  translateStream,
  validateClient,
} from '../kit/index.js';
import { anthropicMessagesBody } from './anthropic-messages-request.js';
import { AnthropicStreamTranslator } from './anthropic-stream-translator.js';

/**
 * Options of {@link AnthropicChatModel}.
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import type { AnthropicChatModelOptions } from 'rx-advisors/anthropic';
 *
 * const options: AnthropicChatModelOptions = {
 *   client: new Anthropic({ maxRetries: 3 }),
 *   model: 'claude-sonnet-4-5',
 *   maxTokens: 2048,
 *   options: { extra: { thinking: { type: 'enabled', budget_tokens: 1024 } } },
 * };
 * ```
 */
export interface AnthropicChatModelOptions {
  /** The `@anthropic-ai/sdk` client you constructed (key, `baseURL`, retries are yours). */
  client: Anthropic;
  /** The model name, e.g. `'claude-sonnet-4-5'`; a request's `options.model` overrides it. */
  model: string;
  /** `max_tokens` when the request sets no `maxTokens` (the API requires one); default 4096. */
  maxTokens?: number;
  /** Default options of every call; the request's options win field by field. */
  options?: ChatOptions;
  /** Reported as `ChatModel.provider` and in errors; default `'anthropic'`. */
  provider?: string;
  /**
   * Milliseconds a call may go without a stream event (before the first one, and between
   * two; Anthropic's `ping` events count) before it fails with a retryable
   * `ProviderIdleTimeoutError` and the HTTP request is aborted; `Infinity` turns it off.
   * Default 120 000 (see `DEFAULT_IDLE_TIMEOUT` in `rx-advisors/provider-kit`).
   */
  idleTimeout?: number;
}

/** The defaults of {@link AnthropicChatModelOptions}; `maxTokens` is used when the request sets none. */
const ANTHROPIC_CHAT_MODEL_DEFAULTS: Readonly<
  Required<Pick<AnthropicChatModelOptions, 'maxTokens' | 'provider' | 'idleTimeout'>>
> = {
  maxTokens: 4096,
  provider: 'anthropic',
  idleTimeout: DEFAULT_IDLE_TIMEOUT,
};

const nonBlank = Rules.custom(
  'a non-empty string',
  (value) => typeof value === 'string' && value.trim() !== '',
);

const ANTHROPIC_CHAT_MODEL_RULES: OptionRules<AnthropicChatModelOptions> = {
  model: Rules.required(Rules.custom("a model name such as 'claude-sonnet-4-5'", nonBlank.test)),
  provider: nonBlank,
  maxTokens: Rules.integer(1),
  idleTimeout: idleTimeoutRule,
};

/**
 * A `ChatModel` over the official `@anthropic-ai/sdk` Messages streaming API: text,
 * extended thinking (sent back to the API in the next round), tool use, cache-aware usage.
 * Each subscription is one HTTP request; unsubscribing aborts it. Failures arrive as a
 * `ProviderError`.
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { ChatClient } from 'rx-advisors';
 * import { AnthropicChatModel } from 'rx-advisors/anthropic';
 *
 * const model = new AnthropicChatModel({
 *   client: new Anthropic(),
 *   model: 'claude-sonnet-4-5',
 *   maxTokens: 1024,
 * });
 * ChatClient.create(model).prompt('Hello!').call().content().subscribe(console.log);
 * ```
 */
export class AnthropicChatModel implements ChatModel {
  readonly provider: string;
  private readonly client: Anthropic;
  private readonly model: string;
  private readonly maxTokens: number;
  private readonly defaults: ChatOptions | undefined;
  private readonly idleTimeout: number;
  private readonly secrets: string[];

  /** @param options The client, the model name and `maxTokens`; see {@link AnthropicChatModelOptions}. */
  constructor(options: AnthropicChatModelOptions) {
    const given = (options ?? {}) as Partial<AnthropicChatModelOptions>;
    validateClient(
      given.client,
      ['messages', 'create'],
      "an Anthropic client: new Anthropic({ apiKey }) from the '@anthropic-ai/sdk' package",
    );
    const settings = withDefaults(
      ANTHROPIC_CHAT_MODEL_DEFAULTS,
      validateOptions(options, ANTHROPIC_CHAT_MODEL_RULES),
    );
    this.client = settings.client;
    this.model = settings.model;
    this.maxTokens = settings.maxTokens;
    this.provider = settings.provider;
    this.defaults = settings.options;
    this.idleTimeout = settings.idleTimeout;
    this.secrets = clientSecrets(settings.client);
  }

  /** The model a call uses when its request names none: the options' model, else `model`. */
  get defaultModel(): string {
    return this.defaults?.model ?? this.model;
  }

  /**
   * Streams one model call.
   * @param request The request to send.
   * @returns A cold Observable of chunks; it ends with one `usage` and one `finish` chunk.
   */
  stream(request: ChatRequest): Observable<ChatChunk> {
    // The body is built per subscription and before the SDK call, so a part the API cannot
    // take fails as an `UnsupportedMediaError` (not a ProviderError) and nothing is sent.
    return defer(() => {
      const body = anthropicMessagesBody(request, mergeOptions(this.defaults, request.options), {
        model: this.model,
        maxTokens: this.maxTokens,
      });
      return translateStream({
        events$: sdkEventStream((signal) => this.client.messages.create(body, { signal })),
        createTranslator: () => new AnthropicStreamTranslator(),
        errors: { provider: this.provider, secrets: this.secrets },
        idleTimeout: this.idleTimeout,
      });
    });
  }
}
