import { Rules } from '../core/validate-options.js';

/**
 * The rule of a `vectorStore` option that only searches (the retriever, the question-answer
 * advisor): an object with `similaritySearch(request)`.
 * @internal
 */
export const SEARCHABLE_VECTOR_STORE_RULE = Rules.required(
  Rules.custom(
    'a VectorStore (an object with similaritySearch(request))',
    (value) =>
      typeof (value as { similaritySearch?: unknown } | null)?.similaritySearch === 'function',
  ),
);

/** The rule of a `searchRequest` option (topK, similarityThreshold, filter): an object. @internal */
export const SEARCH_REQUEST_RULE = Rules.custom(
  'an object',
  (value) => typeof value === 'object' && value !== null,
);
