import { catchError, defer, from, mergeMap, throwError, type Observable } from 'rxjs';
import type { ChatChunk } from '../../core/chat-chunk.js';
import type { ChatModel } from '../../core/chat-model.js';
import type { ChatOptions } from '../../core/chat-options.js';
import type { ChatRequest } from '../../core/chat-request.js';
import { validateOptions, withDefaults } from '../../core/validate-options.js';
import { isPromiseLike } from '../../core/is-promise-like.js';
import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
import { mergeOptions, sdkEventStream, translateStream } from '../kit/index.js';
import { aiSdkCallOptions } from './ai-sdk-call-options.js';
import {
  AI_SDK_CHAT_MODEL_DEFAULTS,
  AI_SDK_CHAT_MODEL_RULES,
  type AiSdkChatModelOptions,
} from './ai-sdk-chat-model-options.js';
import { aiSdkError } from './ai-sdk-error.js';
import { hasUrlMedia, refusedMedia } from './ai-sdk-media-refusal.js';
import {
  openAiSdkStream,
  readParts,
  SUPPORTED_SPECIFICATION_VERSIONS,
  type AiSdkLanguageModel,
} from './ai-sdk-language-model.js';
import { AiSdkStreamTranslator } from './ai-sdk-stream-translator.js';

export type { AiSdkChatModelOptions } from './ai-sdk-chat-model-options.js';

/**
 * A `ChatModel` over any AI SDK language model (`@ai-sdk/google`, `@ai-sdk/mistral`,
 * `@ai-sdk/amazon-bedrock`, … — specification V3, or V2): streamed text, reasoning with
 * the provider metadata it needs back, tool-call deltas and complete calls, usage with
 * cache and reasoning counts, finish reasons, response id and model, native JSON schema
 * mode. Each subscription is one `doStream` call; unsubscribing aborts its HTTP request.
 * Failures arrive as a `ProviderError` (status, retryable, Retry-After from the AI SDK's
 * `APICallError`).
 *
 * @example
 * ```ts
 * import { createGoogleGenerativeAI } from '@ai-sdk/google';
 * import { ChatClient } from 'rx-advisors';
 * import { AiSdkChatModel } from 'rx-advisors/ai-sdk';
 *
 * const google = createGoogleGenerativeAI({ apiKey: process.env['GOOGLE_API_KEY'] ?? '' });
 * const model = new AiSdkChatModel({ model: google('gemini-2.5-flash') });
 * ChatClient.create(model).prompt('Hello!').call().content().subscribe(console.log);
 * ```
 */
export class AiSdkChatModel implements ChatModel {
  readonly provider: string;
  private readonly model: AiSdkLanguageModel;
  private readonly resolveModel: ((modelId: string) => AiSdkLanguageModel) | undefined;
  private readonly defaults: ChatOptions | undefined;
  private readonly idleTimeout: number;
  private readonly secrets: readonly string[];

  /** @param options The AI SDK model and the bridge's settings; see {@link AiSdkChatModelOptions}. */
  constructor(options: AiSdkChatModelOptions) {
    const given = (options ?? {}) as Partial<AiSdkChatModelOptions>;
    checkModel(given.model, 'model');
    const settings = withDefaults(
      AI_SDK_CHAT_MODEL_DEFAULTS,
      validateOptions(options, AI_SDK_CHAT_MODEL_RULES),
    );
    this.model = settings.model;
    this.provider = settings.provider ?? settings.model.provider;
    this.resolveModel = settings.resolveModel;
    this.defaults = settings.options;
    this.idleTimeout = settings.idleTimeout;
    this.secrets = [...settings.secrets];
  }

  /** The model a call uses when its request names none: the options' model, else the AI SDK model's id. */
  get defaultModel(): string {
    return this.defaults?.model ?? this.model.modelId;
  }

  /**
   * Streams one model call.
   * @param request The request to send.
   * @returns A cold Observable of chunks; it ends with one `usage` and one `finish` chunk.
   */
  stream(request: ChatRequest): Observable<ChatChunk> {
    const errors = { provider: this.provider, secrets: this.secrets };
    return defer(() => {
      const options = mergeOptions(this.defaults, request.options);
      const model = this.modelFor(options.model);
      const start = (supportedUrls: Record<string, RegExp[]>): Observable<ChatChunk> => {
        const call = aiSdkCallOptions(request, options, {
          provider: this.provider,
          specificationVersion: model.specificationVersion,
          supportedUrls,
        });
        return translateStream({
          events$: sdkEventStream((signal) =>
            openAiSdkStream(model, { ...call, abortSignal: signal }).then(readParts),
          ).pipe(catchError((error: unknown) => throwError(() => aiSdkError(error, errors)))),
          createTranslator: () => new AiSdkStreamTranslator(errors, model.modelId),
          errors,
          idleTimeout: this.idleTimeout,
        }).pipe(
          // A part the provider package refused while building its request (nothing sent).
          catchError((error: unknown) =>
            throwError(() => refusedMedia(error, request, this.provider) ?? error),
          ),
        );
      };
      // `supportedUrls` may be a promise; it is only waited for when a part has a URL.
      if (!hasUrlMedia(request.messages)) return start({});
      const urls = model.supportedUrls;
      return isPromiseLike<Record<string, RegExp[]>>(urls)
        ? from(urls).pipe(mergeMap(start))
        : start(urls);
    });
  }

  /** The model a request's `options.model` names: this one, or one `resolveModel` gives. */
  private modelFor(modelId: string | undefined): AiSdkLanguageModel {
    if (modelId === undefined || modelId === this.model.modelId) return this.model;
    if (this.resolveModel === undefined) {
      throw new InvalidOptionsError({
        option: 'options.model',
        value: modelId,
        expected: `'${this.model.modelId}' (the AI SDK model is fixed; give AiSdkChatModel a resolveModel option, e.g. resolveModel: google, to switch by name)`,
      });
    }
    const model = this.resolveModel(modelId);
    checkModel(model, 'resolveModel(modelId)');
    return model;
  }
}

function checkModel(model: unknown, option: string): asserts model is AiSdkLanguageModel {
  const candidate = model as Partial<AiSdkLanguageModel> | undefined;
  const version = candidate?.specificationVersion as string | undefined;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.doStream !== 'function' ||
    !(SUPPORTED_SPECIFICATION_VERSIONS as readonly (string | undefined)[]).includes(version)
  ) {
    throw new InvalidOptionsError({
      option,
      value: version === undefined ? model : `a language model of specification ${version}`,
      expected: `an AI SDK language model of specification ${SUPPORTED_SPECIFICATION_VERSIONS.join(' or ')} (e.g. google('gemini-2.5-flash') from @ai-sdk/google 3.x)`,
    });
  }
}
