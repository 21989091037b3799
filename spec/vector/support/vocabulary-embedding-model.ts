import { defer, finalize, NEVER, of, throwError, type Observable } from 'rxjs';
import type { EmbeddingModel, EmbeddingResponse } from '../../../lib/index';

/** The words the test vectors count, one dimension each. */
export const VOCABULARY = ['refund', 'shipping', 'password', 'tea', 'coffee', 'green'] as const;

/**
 * A deterministic vector for a text: how often each vocabulary word occurs (so cosine
 * similarity is word overlap), plus `extra` zero dimensions.
 */
export function vocabularyVector(text: string, extra = 0): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  const vector: number[] = VOCABULARY.map((w) => words.filter((x) => x.startsWith(w)).length);
  return [...vector, ...new Array<number>(extra).fill(0)];
}

/** An EmbeddingModel for tests: deterministic vectors, a call log and switchable failures. */
export class VocabularyEmbeddingModel implements EmbeddingModel {
  readonly provider = 'vocabulary';
  /** The texts of every subscribed call, in order. */
  readonly calls: string[][] = [];
  /** Extra zero dimensions (changing it simulates another model). */
  extraDimensions = 0;
  /** The next calls fail with this error. */
  failWith: unknown = undefined;
  /** The next calls never answer (for unsubscribe tests). */
  hang = false;
  /** How many calls were torn down. */
  finalized = 0;

  embed(texts: readonly string[]): Observable<EmbeddingResponse> {
    return defer(() => {
      this.calls.push([...texts]);
      if (this.failWith !== undefined) return throwError(() => this.failWith);
      if (this.hang) return NEVER;
      return of({
        embeddings: texts.map((t) => vocabularyVector(t, this.extraDimensions)),
        usage: { inputTokens: texts.length, outputTokens: undefined, totalTokens: texts.length },
      });
    }).pipe(finalize(() => (this.finalized += 1)));
  }
}
