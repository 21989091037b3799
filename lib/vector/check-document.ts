import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { Document, MetadataValue } from './document.js';

const EXPECTED =
  'a Document: { id: non-empty string, text: string, metadata: an object of strings, finite numbers, booleans or null }';

/**
 * Checks one document of an `add` before anything is embedded, the same for every store:
 * a non-empty string id, a string text, and metadata whose values are strings, finite
 * numbers, booleans or `null` (what every store can store and filter the same way).
 * @internal
 * @param document The document.
 * @param index Its position in the batch, for the error.
 * @throws InvalidOptionsError naming `documents[index]`.
 */
export function checkDocument(document: Document, index: number): void {
  const ok =
    typeof document === 'object' &&
    document !== null &&
    typeof document.id === 'string' &&
    document.id.length > 0 &&
    typeof document.text === 'string' &&
    typeof document.metadata === 'object' &&
    document.metadata !== null &&
    !Array.isArray(document.metadata) &&
    Object.values(document.metadata).every(isMetadataValue);
  if (!ok) {
    throw new InvalidOptionsError({
      option: `documents[${index}]`,
      value: document,
      expected: EXPECTED,
    });
  }
}

/**
 * Whether a value may be a metadata value.
 * @internal
 */
export function isMetadataValue(value: unknown): value is MetadataValue {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/**
 * A copy of a document that shares nothing mutable with it.
 * @internal
 */
export const copyDocument = (document: Document): Document => ({
  id: document.id,
  text: document.text,
  metadata: { ...document.metadata },
});
