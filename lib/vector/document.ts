/**
 * A metadata value a document may carry; filter expressions compare against these.
 *
 * @example
 * ```ts
 * import type { MetadataValue } from 'rx-advisors/rag';
 * const year: MetadataValue = 2024;
 * ```
 */
export type MetadataValue = string | number | boolean | null;

/**
 * A piece of text to retrieve: an id (adding the same id again replaces it), the text that
 * is embedded and given to the model, and metadata for filtering and for citing sources.
 *
 * @example
 * ```ts
 * import type { Document } from 'rx-advisors/rag';
 * const doc: Document = { id: 'faq-1', text: 'Refunds take 5 days.', metadata: { topic: 'billing' } };
 * ```
 */
export interface Document {
  readonly id: string;
  readonly text: string;
  readonly metadata: Readonly<Record<string, MetadataValue>>;
}

/**
 * A document found by a similarity search, with its similarity to the query (cosine
 * similarity, from -1 to 1; higher is closer).
 *
 * @example
 * ```ts
 * import type { ScoredDocument } from 'rx-advisors/rag';
 * const hit: ScoredDocument = { id: 'faq-1', text: 'Refunds take 5 days.', metadata: {}, score: 0.83 };
 * ```
 */
export interface ScoredDocument extends Document {
  readonly score: number;
}
