import type { MetadataValue } from './document.js';

/**
 * A parsed metadata filter: the tree every vector store evaluates or translates (to SQL
 * for SQLite and PostgreSQL). Build it by hand or with `parseFilterExpression`.
 *
 * @example
 * ```ts
 * import type { FilterExpression } from 'rx-advisors/rag';
 * const recentDrama: FilterExpression = {
 *   type: 'and',
 *   left: { type: 'compare', key: 'genre', operator: '==', value: 'drama' },
 *   right: { type: 'compare', key: 'year', operator: '>=', value: 2020 },
 * };
 * ```
 */
export type FilterExpression =
  | {
      readonly type: 'and' | 'or';
      readonly left: FilterExpression;
      readonly right: FilterExpression;
    }
  | { readonly type: 'not'; readonly operand: FilterExpression }
  | {
      readonly type: 'compare';
      readonly key: string;
      readonly operator: FilterOperator;
      readonly value: MetadataValue;
    }
  | {
      readonly type: 'in' | 'nin';
      readonly key: string;
      readonly values: readonly MetadataValue[];
    };

/**
 * The comparison operators of a filter expression.
 *
 * @example
 * ```ts
 * import type { FilterOperator } from 'rx-advisors/rag';
 * const op: FilterOperator = '>=';
 * ```
 */
export type FilterOperator = '==' | '!=' | '<' | '<=' | '>' | '>=';
