import type { DocumentSource } from '../../core/source.js';
import { isWebUrl } from '../../core/web-url.js';
import type { ChunkSink } from './stream-translator.js';

/** Only these become links: a `javascript:` or `data:` URL is never sent to a browser. */

/**
 * A URL the provider cites, as its stream reports it.
 * @example
 * ```ts
 * import type { CitedUrl } from 'rx-advisors/provider-kit';
 * const cited: CitedUrl = { url: 'https://example.com/a', title: null }; // id: the URL
 * ```
 */
export interface CitedUrl {
  url: string;
  /** The provider's id for the source; default: the URL itself. */
  id?: string | undefined;
  /** Left out of the chunk when `null`, `undefined` or empty. */
  title?: string | null | undefined;
}

/**
 * The sources one model call cites, sent as `source` chunks (docs/providers.md, "Sources
 * from the provider"): each URL once, however many sentences cite it, and only `http(s)`
 * URLs (any other scheme is dropped: a provider source is a link or nothing); each
 * document once by its id. A translator keeps one per call (`translateStream` makes a
 * translator per subscription), so repeats are told apart per call only.
 *
 * @example
 * ```ts
 * import { CitedSources, type ChunkSink } from 'rx-advisors/provider-kit';
 *
 * const sink: ChunkSink = { next: (chunk) => console.log(chunk) };
 * const sources = new CitedSources();
 * sources.url({ url: 'https://example.com/a', title: 'A' }, sink); // sent, id 'https://example.com/a'
 * sources.url({ url: 'https://example.com/a', title: 'A' }, sink); // already sent: nothing
 * sources.url({ url: 'javascript:alert(1)' }, sink); // not a web URL: nothing
 * sources.document({ id: 'file-1', mediaType: 'application/pdf', title: 'ai.pdf', filename: 'ai.pdf' }, sink);
 * ```
 */
export class CitedSources {
  /** Created with the first source: most answers cite nothing. */
  private urls: Set<string> | undefined;
  private documents: Set<string> | undefined;

  /**
   * Sends a URL source unless its URL is not `http(s)` or was sent before in this call.
   * @param source The cited URL, its id and title.
   * @param sink Where the chunk goes.
   */
  url(source: CitedUrl, sink: ChunkSink): void {
    const { url, title } = source;
    if (!isWebUrl(url)) return;
    const urls = (this.urls ??= new Set());
    if (urls.has(url)) return;
    urls.add(url);
    const id = source.id ?? url;
    sink.next(
      typeof title === 'string' && title !== ''
        ? { type: 'source', sourceType: 'url', id, url, title }
        : { type: 'source', sourceType: 'url', id, url },
    );
  }

  /**
   * Sends a document source unless one with the same id was sent before in this call.
   * @param source The document: id, media type, title, optional filename.
   * @param sink Where the chunk goes.
   */
  document(source: Omit<DocumentSource, 'sourceType'>, sink: ChunkSink): void {
    const documents = (this.documents ??= new Set());
    if (documents.has(source.id)) return;
    documents.add(source.id);
    const { id, mediaType, title, filename } = source;
    sink.next(
      filename === undefined || filename === ''
        ? { type: 'source', sourceType: 'document', id, mediaType, title }
        : { type: 'source', sourceType: 'document', id, mediaType, title, filename },
    );
  }
}
