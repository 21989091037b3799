import { concatMap, from, reduce, type Observable } from 'rxjs';
import type { Usage } from '../core/usage.js';
import type { EmbeddingResponse } from './embedding-model.js';

/**
 * Embeds `texts` in batches of at most `size`, one request after the other (cancelled
 * with the subscription), and joins the answers into one response: the vectors in the
 * order of `texts`, the usage added up (output tokens unknown: embeddings produce none),
 * the model of the last batch. What every `EmbeddingModel` over a batch-limited API does.
 * @internal
 * @example
 * ```ts
 * embedInBatches(texts, 96, (batch) => this.request(batch)).subscribe(({ embeddings }) => store(embeddings));
 * ```
 * @param texts The texts, at least one.
 * @param size The most texts one request may carry.
 * @param request One request for one batch.
 * @returns The joined response.
 */
export function embedInBatches(
  texts: readonly string[],
  size: number,
  request: (batch: string[]) => Observable<EmbeddingResponse>,
): Observable<EmbeddingResponse> {
  const batches: string[][] = [];
  for (let i = 0; i < texts.length; i += size) batches.push(texts.slice(i, i + size));
  return from(batches).pipe(
    concatMap(request),
    reduce<EmbeddingResponse, EmbeddingResponse>(
      (total, part) => ({
        embeddings: [...total.embeddings, ...part.embeddings],
        usage: addUsage(total.usage, part.usage),
        model: part.model,
      }),
      { embeddings: [], usage: { inputTokens: 0, outputTokens: undefined, totalTokens: 0 } },
    ),
  );
}

function addUsage(a: Usage, b: Usage): Usage {
  const sum = (x: number | undefined, y: number | undefined): number | undefined =>
    x === undefined || y === undefined ? undefined : x + y;
  return {
    inputTokens: sum(a.inputTokens, b.inputTokens),
    outputTokens: undefined,
    totalTokens: sum(a.totalTokens, b.totalTokens),
  };
}
