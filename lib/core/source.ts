/**
 * A web page an answer draws on: the AI SDK's `source-url` part.
 * @example
 * ```ts
 * import type { UrlSource } from 'rx-advisors';
 * const source: UrlSource = { sourceType: 'url', id: 'docs-1', url: 'https://example.com/refunds', title: 'Refunds' };
 * ```
 */
export interface UrlSource {
  sourceType: 'url';
  /** Unique within the answer; a later source with the same id replaces the earlier one. */
  id: string;
  url: string;
  title?: string;
}

/**
 * A document an answer draws on (a retrieved file, a knowledge-base entry): the AI SDK's
 * `source-document` part.
 * @example
 * ```ts
 * import type { DocumentSource } from 'rx-advisors';
 * const source: DocumentSource = {
 *   sourceType: 'document',
 *   id: 'refunds',
 *   mediaType: 'text/markdown',
 *   title: 'Refunds',
 *   filename: 'refunds.md',
 * };
 * ```
 */
export interface DocumentSource {
  sourceType: 'document';
  /** Unique within the answer; a later source with the same id replaces the earlier one. */
  id: string;
  /** IANA media type of the document (`text/plain`, `text/markdown`, `application/pdf`). */
  mediaType: string;
  title: string;
  filename?: string;
}

/**
 * Where an answer's information comes from, shown to the user (never sent to the model).
 * @example
 * ```ts
 * import type { Source } from 'rx-advisors';
 * const label = (s: Source): string => (s.sourceType === 'url' ? s.url : s.title);
 * ```
 */
export type Source = UrlSource | DocumentSource;
