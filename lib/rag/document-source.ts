import type { DocumentSource, Source } from '../core/source.js';
import { isWebUrl } from '../core/web-url.js';
import type { Document } from '../vector/document.js';

/**
 * The source a retrieved document is shown as (`QuestionAnswerAdvisor` with
 * `emitSources: true`), read from its metadata:
 * - `metadata.url` an `http(s)` URL: a URL source `{ id, url, title? }` (other schemes such
 *   as `javascript:` are never sent as links);
 * - otherwise a document source `{ id, mediaType, title, filename? }`: `metadata.mediaType`
 *   (default `text/plain`), `metadata.title` (else `filename`, else the id),
 *   `metadata.filename`.
 *
 * The document's text is never part of it.
 *
 * @example
 * ```ts
 * import { documentSource } from 'rx-advisors/rag';
 *
 * documentSource({ id: 'faq', text: '…', metadata: { title: 'FAQ', filename: 'faq.md', mediaType: 'text/markdown' } });
 * // { sourceType: 'document', id: 'faq', mediaType: 'text/markdown', title: 'FAQ', filename: 'faq.md' }
 * documentSource({ id: 'w1', text: '…', metadata: { url: 'https://example.com/a', title: 'A' } });
 * // { sourceType: 'url', id: 'w1', url: 'https://example.com/a', title: 'A' }
 * ```
 * @param document A stored (or retrieved) document.
 * @returns Its source.
 */
export function documentSource(document: Document): Source {
  const { id, metadata } = document;
  const url = metadata['url'];
  const title = stringOf(metadata['title']);
  if (isWebUrl(url)) {
    return title === undefined
      ? { sourceType: 'url', id, url }
      : { sourceType: 'url', id, url, title };
  }
  const filename = stringOf(metadata['filename']);
  const source: DocumentSource = {
    sourceType: 'document',
    id,
    mediaType: stringOf(metadata['mediaType']) ?? 'text/plain',
    title: title ?? filename ?? id,
  };
  if (filename !== undefined) source.filename = filename;
  return source;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
