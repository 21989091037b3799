import type OpenAI from 'openai';
import { defer, type Observable } from 'rxjs';
import type { ChatChunk } from '../../core/chat-chunk.js';
import type { ChatModel } from '../../core/chat-model.js';
import type { ChatOptions } from '../../core/chat-options.js';
import type { ChatRequest } from '../../core/chat-request.js';
import { validateOptions, withDefaults } from '../../core/validate-options.js';
import {
  clientSecrets,
  mergeOptions,
  sdkEventStream,
  translateStream,
  validateClient,
} from '../kit/index.js';
import { chatCompletionsBody } from './chat-completions-request.js';
import { ChatCompletionsTranslator } from './chat-completions-translator.js';
import {
  OPENAI_CHAT_MODEL_DEFAULTS,
  OPENAI_CHAT_MODEL_RULES,
  type OpenAiApi,
  type OpenAiChatModelOptions,
} from './openai-chat-model-options.js';
import { responsesBody } from './responses-request.js';
import { ResponsesTranslator } from './responses-translator.js';

/**
 * A `ChatModel` over the official `openai` SDK: Chat Completions streaming (and any
 * OpenAI-compatible server through the client's `baseURL`), or the Responses API with
 * `api: 'responses'`. Each subscription is one HTTP request; unsubscribing aborts it.
 * Failures arrive as a `ProviderError`.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { ChatClient } from 'rx-advisors';
 * import { OpenAiChatModel } from 'rx-advisors/openai';
 *
 * const model = new OpenAiChatModel({ client: new OpenAI(), model: 'gpt-4o-mini' });
 * ChatClient.create(model).prompt('Hello!').stream().content().subscribe(process.stdout.write.bind(process.stdout));
 *
 * // A local OpenAI-compatible server (Ollama):
 * const local = new OpenAiChatModel({
 *   client: new OpenAI({ baseURL: 'http://localhost:11434/v1', apiKey: 'ollama' }),
 *   model: 'llama3.2',
 *   provider: 'ollama',
 * });
 * ```
 */
export class OpenAiChatModel implements ChatModel {
  readonly provider: string;
  /** The API this model streams from. */
  readonly api: OpenAiApi;
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly defaults: ChatOptions | undefined;
  private readonly maxTokensField: 'max_completion_tokens' | 'max_tokens';
  private readonly includeUsage: boolean;
  private readonly includeEncryptedReasoning: boolean | undefined;
  private readonly idleTimeout: number;
  private readonly secrets: string[];

  /** @param options The client, the model name and the API; see {@link OpenAiChatModelOptions}. */
  constructor(options: OpenAiChatModelOptions) {
    const given = validateOptions(options, OPENAI_CHAT_MODEL_RULES);
    const settings = withDefaults(OPENAI_CHAT_MODEL_DEFAULTS, given);
    validateClient(
      settings.client,
      settings.api === 'chat' ? ['chat', 'completions', 'create'] : ['responses', 'create'],
      "an OpenAI client: new OpenAI({ apiKey }) from the 'openai' package",
    );
    this.client = settings.client;
    this.model = settings.model;
    this.api = settings.api;
    this.provider = settings.provider;
    this.defaults = settings.options;
    this.maxTokensField = settings.maxTokensField;
    this.includeUsage = settings.includeUsage;
    this.includeEncryptedReasoning = given.includeEncryptedReasoning;
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
    const errors = { provider: this.provider, secrets: this.secrets };
    const idleTimeout = this.idleTimeout;
    // The body is built per subscription and before the SDK call, so a part the API cannot
    // take fails as an `UnsupportedMediaError` (not a ProviderError) and nothing is sent.
    return defer(() => {
      const options = mergeOptions(this.defaults, request.options);
      if (this.api === 'responses') {
        const body = responsesBody(request, options, {
          model: this.model,
          includeEncryptedReasoning: this.includeEncryptedReasoning,
        });
        return translateStream({
          events$: sdkEventStream((signal) => this.client.responses.create(body, { signal })),
          createTranslator: () => new ResponsesTranslator(),
          errors,
          idleTimeout,
        });
      }
      const body = chatCompletionsBody(request, options, {
        model: this.model,
        maxTokensField: this.maxTokensField,
        includeUsage: this.includeUsage,
      });
      return translateStream({
        events$: sdkEventStream((signal) => this.client.chat.completions.create(body, { signal })),
        createTranslator: () => new ChatCompletionsTranslator(),
        errors,
        idleTimeout,
      });
    });
  }
}
