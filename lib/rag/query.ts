import type { Message } from '../core/message.js';

/**
 * The question as it moves through a `RetrievalAugmentationAdvisor`'s stages: its text,
 * the conversation before it (system messages left out) and the call's context (advisor
 * params). Stages never change a query; they return new ones.
 *
 * @example
 * ```ts
 * import type { Query } from 'rx-advisors/rag';
 * const query: Query = { text: 'How long do refunds take?', history: [], context: new Map() };
 * const shorter: Query = { ...query, text: 'refund duration' };
 * ```
 */
export interface Query {
  /** The text to search for (and, after augmentation, to answer). */
  readonly text: string;
  /** The messages before the question, oldest first, system messages left out. */
  readonly history: readonly Message[];
  /** The call's `request.context` (advisor params such as a per-call filter). */
  readonly context: ReadonlyMap<string, unknown>;
}
