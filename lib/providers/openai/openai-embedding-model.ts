import type OpenAI from 'openai';
import { catchError, map, of, throwError, type Observable } from 'rxjs';
import type { Usage } from '../../core/usage.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../../core/validate-options.js';
import { embedInBatches } from '../../vector/embed-in-batches.js';
import type { EmbeddingModel, EmbeddingResponse } from '../../vector/embedding-model.js';
import { clientSecrets, sdkCall, toProviderError, validateClient } from '../kit/index.js';

/**
 * Options of {@link OpenAiEmbeddingModel}.
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import type { OpenAiEmbeddingModelOptions } from 'rx-advisors/openai';
 * const options: OpenAiEmbeddingModelOptions = { client: new OpenAI(), model: 'text-embedding-3-small', dimensions: 512 };
 * ```
 */
export interface OpenAiEmbeddingModelOptions {
  /** The `openai` client you constructed (key, `baseURL`, retries are yours). */
  client: OpenAI;
  /** Default `'text-embedding-3-small'`. */
  model?: string;
  /** Shorter vectors (text-embedding-3 models only); default: the model's own. */
  dimensions?: number;
  /** Texts per request, at most 2048 (the API's limit); default 512. */
  batchSize?: number;
  /** Provider name in errors; default `'openai'`. */
  provider?: string;
}

const OPENAI_EMBEDDING_DEFAULTS = {
  model: 'text-embedding-3-small',
  batchSize: 512,
  provider: 'openai',
} as const;

const OPENAI_EMBEDDING_RULES: OptionRules<OpenAiEmbeddingModelOptions> = {
  model: Rules.nonEmptyString,
  dimensions: Rules.integer(1),
  batchSize: Rules.integer(1, 2048),
  provider: Rules.nonEmptyString,
};

/**
 * An `EmbeddingModel` over the official `openai` SDK (`embeddings.create`), for OpenAI and
 * any compatible server through the SDK's `baseURL`. Texts are sent in batches of
 * `batchSize`, one request after another; the response has every vector in input order and
 * the summed usage. Unsubscribing aborts the request in flight and sends no further batch.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { InMemoryVectorStore } from 'rx-advisors/rag';
 * import { OpenAiEmbeddingModel } from 'rx-advisors/openai';
 *
 * const embeddingModel = new OpenAiEmbeddingModel({ client: new OpenAI() });
 * const store = new InMemoryVectorStore({ embeddingModel });
 * ```
 */
export class OpenAiEmbeddingModel implements EmbeddingModel {
  readonly provider: string;
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly dimensions: number | undefined;
  private readonly batchSize: number;

  /** @param options The client, model, dimensions, batch size and provider name. */
  constructor(options: OpenAiEmbeddingModelOptions) {
    const resolved = withDefaults(
      OPENAI_EMBEDDING_DEFAULTS,
      validateOptions(options, OPENAI_EMBEDDING_RULES),
    );
    validateClient(resolved.client, ['embeddings', 'create'], 'an OpenAI client (new OpenAI())');
    this.client = resolved.client;
    this.model = resolved.model;
    this.dimensions = resolved.dimensions;
    this.batchSize = resolved.batchSize;
    this.provider = resolved.provider;
  }

  embed(texts: readonly string[]): Observable<EmbeddingResponse> {
    if (texts.length === 0) {
      return of({ embeddings: [], usage: usageOf(undefined) });
    }
    return embedInBatches(texts, this.batchSize, (batch) => this.request(batch));
  }

  /** One `embeddings.create` call, aborted on unsubscribe. */
  private request(input: string[]): Observable<EmbeddingResponse> {
    const body: OpenAI.Embeddings.EmbeddingCreateParams = { model: this.model, input };
    if (this.dimensions !== undefined) body.dimensions = this.dimensions;
    return sdkCall((signal) => this.client.embeddings.create(body, { signal })).pipe(
      catchError((error: unknown) =>
        throwError(() =>
          toProviderError(error, { provider: this.provider, secrets: clientSecrets(this.client) }),
        ),
      ),
      map((response) => ({
        embeddings: [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding),
        usage: usageOf(response.usage),
        model: response.model,
      })),
    );
  }
}

function usageOf(usage: OpenAI.Embeddings.CreateEmbeddingResponse.Usage | undefined): Usage {
  // Embeddings produce no output tokens; the API does not report any, so they stay unknown.
  return {
    inputTokens: usage?.prompt_tokens,
    outputTokens: undefined,
    totalTokens: usage?.total_tokens,
  };
}
