import type OpenAI from 'openai';
import type { Observable } from 'rxjs';
import type { ChatChunk } from '../../core/chat-chunk.js';
import type { ChatModel } from '../../core/chat-model.js';
import type { ChatOptions } from '../../core/chat-options.js';
import type { ChatRequest } from '../../core/chat-request.js';
import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
import { mergeOptions } from '../shared/merge-options.js';
import { clientSecrets } from '../shared/redact-secrets.js';
import { sdkEventStream } from '../shared/sdk-event-stream.js';
import { translateStream } from '../shared/translate-stream.js';
import { validateClient, validateName } from '../shared/validate-client.js';
import { chatCompletionsBody } from './chat-completions-request.js';
import { ChatCompletionsTranslator } from './chat-completions-translator.js';
import { responsesBody } from './responses-request.js';
import { ResponsesTranslator } from './responses-translator.js';

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
}

const APIS: readonly OpenAiApi[] = ['chat', 'responses'];

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
  private readonly secrets: string[];

  /** @param options The client, the model name and the API; see {@link OpenAiChatModelOptions}. */
  constructor(options: OpenAiChatModelOptions) {
    const given = (options ?? {}) as Partial<OpenAiChatModelOptions>;
    const api = given.api ?? 'chat';
    if (!APIS.includes(api)) {
      throw new InvalidOptionsError({
        option: 'api',
        value: api,
        expected: "'chat' or 'responses'",
      });
    }
    validateClient(
      given.client,
      api === 'chat' ? ['chat', 'completions', 'create'] : ['responses', 'create'],
      "an OpenAI client: new OpenAI({ apiKey }) from the 'openai' package",
    );
    validateName('model', given.model);
    if (given.provider !== undefined) validateName('provider', given.provider);
    const field = given.maxTokensField ?? 'max_completion_tokens';
    if (field !== 'max_completion_tokens' && field !== 'max_tokens') {
      throw new InvalidOptionsError({
        option: 'maxTokensField',
        value: field,
        expected: "'max_completion_tokens' or 'max_tokens'",
      });
    }
    const encrypted = given.includeEncryptedReasoning;
    if (encrypted !== undefined && typeof encrypted !== 'boolean') {
      throw new InvalidOptionsError({
        option: 'includeEncryptedReasoning',
        value: encrypted,
        expected: 'true, false or undefined (the default: only with store: false or reasoning)',
      });
    }
    this.client = options.client;
    this.model = options.model;
    this.api = api;
    this.provider = given.provider ?? 'openai';
    this.defaults = given.options;
    this.maxTokensField = field;
    this.includeUsage = given.includeUsage ?? true;
    this.includeEncryptedReasoning = encrypted;
    this.secrets = clientSecrets(options.client);
  }

  /**
   * Streams one model call.
   * @param request The request to send.
   * @returns A cold Observable of chunks; it ends with one `usage` and one `finish` chunk.
   */
  stream(request: ChatRequest): Observable<ChatChunk> {
    const errors = { provider: this.provider, secrets: this.secrets };
    if (this.api === 'responses') {
      return translateStream({
        events$: sdkEventStream((signal) =>
          this.client.responses.create(
            responsesBody(request, mergeOptions(this.defaults, request.options), {
              model: this.model,
              includeEncryptedReasoning: this.includeEncryptedReasoning,
            }),
            { signal },
          ),
        ),
        createTranslator: () => new ResponsesTranslator(),
        errors,
      });
    }
    return translateStream({
      events$: sdkEventStream((signal) =>
        this.client.chat.completions.create(
          chatCompletionsBody(request, mergeOptions(this.defaults, request.options), {
            model: this.model,
            maxTokensField: this.maxTokensField,
            includeUsage: this.includeUsage,
          }),
          { signal },
        ),
      ),
      createTranslator: () => new ChatCompletionsTranslator(),
      errors,
    });
  }
}
