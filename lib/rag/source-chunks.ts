import type { SourceChunk } from '../core/chat-chunk.js';
import type { Source } from '../core/source.js';
import { Rules } from '../core/validate-options.js';
import type { ScoredDocument } from '../vector/document.js';
import { documentSource } from './document-source.js';

/**
 * The `emitSources` option of the retrieval advisors (`QuestionAnswerAdvisor`,
 * `RetrievalAugmentationAdvisor`): `true` sends each retrieved document as a `source`
 * chunk made by `documentSource`, `false` sends none, a function makes the source of each
 * document itself (`undefined` leaves a document out).
 * @example
 * ```ts
 * import type { EmitSources } from 'rx-advisors/rag';
 * const onlyWebPages: EmitSources = (document) =>
 *   typeof document.metadata['url'] === 'string'
 *     ? { sourceType: 'url', id: document.id, url: document.metadata['url'] }
 *     : undefined;
 * ```
 */
export type EmitSources = boolean | ((document: ScoredDocument) => Source | undefined);

/** The `emitSources` option's rule. @internal */
export const EMIT_SOURCES_RULE = Rules.custom(
  'true, false or a function (document) => Source | undefined',
  (value) => typeof value === 'boolean' || typeof value === 'function',
);

/**
 * The `source` chunks of retrieved documents, or none when `emitSources` is off.
 * @internal
 * @param documents The retrieved documents, most relevant first.
 * @param emitSources The option.
 * @returns The chunks, in document order.
 */
export function sourceChunks(
  documents: readonly ScoredDocument[],
  emitSources: EmitSources,
): SourceChunk[] {
  if (emitSources === false) return [];
  const toSource = emitSources === true ? documentSource : emitSources;
  const chunks: SourceChunk[] = [];
  for (const document of documents) {
    const source = toSource(document);
    if (source !== undefined) chunks.push({ type: 'source', ...source });
  }
  return chunks;
}
