import { defer, of, type Observable } from 'rxjs';
import type { EmbeddingModel, EmbeddingResponse } from '../../lib/index.js';

/** Dimensions of the offline vectors: enough that a few hundred words rarely collide. */
export const OFFLINE_EMBEDDING_DIMENSIONS = 2048;

/** Words that say nothing about a topic ("how do I …", "what is the …"). */
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by can do does did for from has have how i if in into is it its ' +
    'me my no not of on or so than that the their them then there these they this to was ' +
    'we what when where which who why will with you your'
  ).split(' '),
);

/**
 * The demo's embedding model when no OpenAI key is set: no network, no weights, the same
 * vector for the same text on every machine. Each word (lower case, accents removed, a
 * plural or `-ing`/`-ed` ending cut, stop words left out) is hashed (FNV-1a) to one of
 * 2048 dimensions; the vector counts them and is scaled to length 1, so cosine similarity
 * measures shared words. It knows no synonyms: "stop" does not find "cancel".
 *
 * @example
 * ```ts
 * const store = new InMemoryVectorStore({ embeddingModel: new OfflineEmbeddingModel() });
 * ```
 */
export class OfflineEmbeddingModel implements EmbeddingModel {
  readonly provider = 'offline-embeddings';

  /**
   * Embeds texts (cold: computed on subscription).
   * @param texts The texts.
   * @returns One response; usage is unknown (no tokenizer), so every count is `undefined`.
   */
  embed(texts: readonly string[]): Observable<EmbeddingResponse> {
    return defer(() =>
      of({
        embeddings: texts.map(offlineVector),
        usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined },
        model: 'offline-hashed-words',
      }),
    );
  }
}

/**
 * The offline vector of a text.
 * @param text Any text.
 * @returns 2048 numbers, of length 1 (all zeros for a text without a topic word).
 */
export function offlineVector(text: string): number[] {
  const vector = new Array<number>(OFFLINE_EMBEDDING_DIMENSIONS).fill(0);
  const words = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .match(/[a-z0-9]+/g);
  for (const word of words ?? []) {
    if (STOP_WORDS.has(word)) continue;
    vector[fnv1a(stem(word)) % OFFLINE_EMBEDDING_DIMENSIONS] += 1;
  }
  const length = Math.hypot(...vector);
  return length === 0 ? vector : vector.map((value) => value / length);
}

/** A crude English stem: "resumes", "resuming", "resumed" all become "resum". */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('es')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  if (word.length > 4 && word.endsWith('e')) return word.slice(0, -1);
  return word;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
