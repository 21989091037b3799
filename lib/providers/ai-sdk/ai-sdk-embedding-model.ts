import type {
  EmbeddingModelV2,
  EmbeddingModelV3,
  EmbeddingModelV3CallOptions,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider';
import { catchError, concatMap, defer, from, map, of, throwError, type Observable } from 'rxjs';
import { sdkCall } from '../kit/index.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import { embedInBatches } from '../../vector/embed-in-batches.js';
import type { EmbeddingModel, EmbeddingResponse } from '../../vector/embedding-model.js';
import { aiSdkError } from './ai-sdk-error.js';

/**
 * An AI SDK embedding model the bridge accepts: `EmbeddingModelV3` (provider packages 3.x)
 * or `EmbeddingModelV2<string>` (2.x).
 *
 * @example
 * ```ts
 * import { createMistral } from '@ai-sdk/mistral';
 * import type { AiSdkEmbeddingModelSpec } from 'rx-advisors/ai-sdk';
 *
 * const spec: AiSdkEmbeddingModelSpec = createMistral({ apiKey: 'key' }).embedding('mistral-embed');
 * ```
 */
export type AiSdkEmbeddingModelSpec = EmbeddingModelV3 | EmbeddingModelV2<string>;

/**
 * Options of {@link AiSdkEmbeddingModel}.
 * @example
 * ```ts
 * import { createMistral } from '@ai-sdk/mistral';
 * import type { AiSdkEmbeddingModelOptions } from 'rx-advisors/ai-sdk';
 *
 * const options: AiSdkEmbeddingModelOptions = {
 *   model: createMistral({ apiKey: 'key' }).embedding('mistral-embed'),
 *   batchSize: 16,
 *   secrets: ['key'],
 * };
 * ```
 */
export interface AiSdkEmbeddingModelOptions {
  /** The AI SDK embedding model you constructed (key, base URL, headers are yours). */
  model: AiSdkEmbeddingModelSpec;
  /**
   * Texts per request; default (and at most) the model's `maxEmbeddingsPerCall`, or 512
   * when the model sets no limit.
   */
  batchSize?: number;
  /** Provider options sent with every request (`{ mistral: { … } }`). */
  providerOptions?: SharedV3ProviderOptions;
  /** Reported as `EmbeddingModel.provider` and in errors; default: the model's `provider`. */
  provider?: string;
  /** Strings that must never appear in an error message (your API key). Default none. */
  secrets?: readonly string[];
}

const AI_SDK_EMBEDDING_DEFAULTS = { secrets: [] as readonly string[] } as const;

const AI_SDK_EMBEDDING_RULES: OptionRules<AiSdkEmbeddingModelOptions> = {
  model: Rules.required(
    Rules.custom(
      'an AI SDK embedding model of specification v3 or v2 (e.g. mistral.embedding("mistral-embed"))',
      (value) => {
        const candidate = value as Partial<EmbeddingModelV3> | null;
        return (
          typeof candidate === 'object' &&
          candidate !== null &&
          typeof candidate.doEmbed === 'function' &&
          ['v3', 'v2'].includes(candidate.specificationVersion as string)
        );
      },
    ),
  ),
  batchSize: Rules.integer(1, 100_000),
  providerOptions: Rules.custom(
    'an object',
    (value) => typeof value === 'object' && value !== null,
  ),
  provider: Rules.nonEmptyString,
  secrets: Rules.custom(
    'an array of strings',
    (value) => Array.isArray(value) && value.every((item) => typeof item === 'string'),
  ),
};

/** The batch size when the model sets no limit (its `maxEmbeddingsPerCall` is unset or Infinity). */
const UNLIMITED_BATCH = 512;

/**
 * An `EmbeddingModel` over any AI SDK embedding model (`@ai-sdk/mistral`, `@ai-sdk/google`,
 * `@ai-sdk/openai`, … — specification V3, or V2). Texts go in batches of at most the
 * model's `maxEmbeddingsPerCall`, one request after another; the response has every vector
 * in input order and the summed usage (input tokens; `undefined` when a batch reported
 * none). Unsubscribing aborts the request in flight (`abortSignal`) and sends no further
 * batch. Failures arrive as a `ProviderError` (status and retryable from the AI SDK's
 * `APICallError`), secrets redacted.
 *
 * @example
 * ```ts
 * import { createMistral } from '@ai-sdk/mistral';
 * import { InMemoryVectorStore } from 'rx-advisors/rag';
 * import { AiSdkEmbeddingModel } from 'rx-advisors/ai-sdk';
 *
 * const mistral = createMistral({ apiKey: process.env['MISTRAL_API_KEY'] ?? '' });
 * const embeddingModel = new AiSdkEmbeddingModel({ model: mistral.embedding('mistral-embed') });
 * const store = new InMemoryVectorStore({ embeddingModel });
 * ```
 */
export class AiSdkEmbeddingModel implements EmbeddingModel {
  readonly provider: string;
  private readonly model: AiSdkEmbeddingModelSpec;
  private readonly batchSize: number | undefined;
  private readonly providerOptions: SharedV3ProviderOptions | undefined;
  private readonly secrets: readonly string[];

  /** @param options The AI SDK model, batch size, provider options, name and secrets. */
  constructor(options: AiSdkEmbeddingModelOptions) {
    const settings = withDefaults(
      AI_SDK_EMBEDDING_DEFAULTS,
      validateOptions(options, AI_SDK_EMBEDDING_RULES),
    );
    this.model = settings.model;
    this.provider = settings.provider ?? settings.model.provider;
    this.batchSize = settings.batchSize;
    this.providerOptions = settings.providerOptions;
    this.secrets = [...settings.secrets];
  }

  embed(texts: readonly string[]): Observable<EmbeddingResponse> {
    if (texts.length === 0) {
      return of({
        embeddings: [],
        usage: { inputTokens: 0, outputTokens: undefined, totalTokens: 0 },
      });
    }
    // `maxEmbeddingsPerCall` may be a promise: read once per call, inside the subscription.
    return defer(() => from(Promise.resolve(this.model.maxEmbeddingsPerCall))).pipe(
      concatMap((limit) =>
        embedInBatches(texts, this.sizeFor(limit), (batch) => this.request(batch)),
      ),
    );
  }

  private sizeFor(limit: number | undefined): number {
    const modelLimit =
      limit === undefined || !Number.isFinite(limit) || limit < 1 ? undefined : Math.floor(limit);
    const wanted = this.batchSize ?? modelLimit ?? UNLIMITED_BATCH;
    return modelLimit === undefined ? wanted : Math.min(wanted, modelLimit);
  }

  /** One `doEmbed` call, aborted on unsubscribe. */
  private request(values: string[]): Observable<EmbeddingResponse> {
    const errors = { provider: this.provider, secrets: this.secrets };
    const model = this.model;
    return sdkCall<Awaited<ReturnType<AiSdkEmbeddingModelSpec['doEmbed']>>>((abortSignal) => {
      const call: EmbeddingModelV3CallOptions = { values, abortSignal };
      if (this.providerOptions !== undefined) call.providerOptions = this.providerOptions;
      // V2's call options are V3's for every field set here.
      return model.specificationVersion === 'v3'
        ? model.doEmbed(call)
        : model.doEmbed(call as Parameters<EmbeddingModelV2<string>['doEmbed']>[0]);
    }).pipe(
      catchError((error: unknown) => throwError(() => aiSdkError(error, errors))),
      map((result) => {
        const tokens = result.usage?.tokens;
        return {
          embeddings: result.embeddings,
          usage: { inputTokens: tokens, outputTokens: undefined, totalTokens: tokens },
          model: this.model.modelId,
        };
      }),
    );
  }
}
