import { catchError, map, throwError, type Observable } from 'rxjs';
import { EmbeddingError } from '../errors/embedding-error.js';
import { VectorDimensionError } from '../errors/vector-dimension-error.js';
import type { EmbeddingModel, EmbeddingResponse } from './embedding-model.js';

/**
 * Embeds texts and checks the answer, the same for every store: one vector per text, each
 * of `dimensions` numbers (when the store knows its dimensions; else all of one length).
 * Any failure of the model becomes an `EmbeddingError` (the model's error as its `cause`),
 * so a caller handles one error type for "the embedding model failed".
 *
 * @example
 * ```ts partial
 * import { embedChecked } from 'rx-advisors/rag';
 * embedChecked(model, ['tea'], 1536).subscribe(({ embeddings }) => console.log(embeddings[0]?.length));
 * ```
 * @param model The embedding model.
 * @param texts The texts.
 * @param dimensions The store's dimensions, or `undefined` while it has none.
 * @returns A cold Observable of the checked response.
 */
export function embedChecked(
  model: EmbeddingModel,
  texts: readonly string[],
  dimensions: number | undefined,
): Observable<EmbeddingResponse> {
  return model.embed(texts).pipe(
    catchError((error: unknown) =>
      throwError(
        () =>
          new EmbeddingError({ provider: model.provider, problem: describe(error), cause: error }),
      ),
    ),
    map((response) => {
      if (response.embeddings.length !== texts.length) {
        throw new EmbeddingError({
          provider: model.provider,
          problem: `it returned ${response.embeddings.length} vectors for ${texts.length} texts`,
        });
      }
      const expected = dimensions ?? response.embeddings[0]?.length;
      for (const vector of response.embeddings) {
        if (vector.length !== expected || vector.length === 0) {
          throw new VectorDimensionError({ expected: expected ?? 0, actual: vector.length });
        }
      }
      return response;
    }),
  );
}

const describe = (error: unknown): string =>
  error instanceof Error ? error.message : JSON.stringify(error);
