import { InvalidOptionsError } from '../../errors/invalid-options-error.js';
import { isMetadataValue } from '../check-document.js';
import type { MetadataValue } from '../document.js';
import type { FilterExpression, FilterOperator } from '../filter-expression.js';

/** A SQL boolean expression over the `metadata` JSON column and its parameters. @internal */
export interface SqlFilter {
  readonly sql: string;
  readonly params: readonly (string | number)[];
}

/**
 * Translates a filter tree to a SQLite `WHERE` expression over the JSON `metadata` column,
 * with the semantics `matchesFilter` has in memory (the contract suite runs both):
 * a missing key and a JSON `null` both read as `null`; `==` compares type and value
 * (`true` is not `1`); `<`, `<=`, `>`, `>=` hold only between two numbers or two strings.
 * Every leaf yields 0 or 1, never SQL `NULL`, so `NOT` and `!=` stay two-valued. Keys and
 * values are bound parameters: nothing from the filter is spliced into the SQL.
 *
 * @internal
 * @param filter The parsed filter.
 * @param column The metadata column, as SQL (a fixed, quoted identifier).
 * @returns The expression and its parameters, in order.
 * @throws InvalidOptionsError for a key SQLite's JSON paths cannot name (it holds `"`) or a
 *   value that is not a metadata value.
 */
export function toSqlFilter(filter: FilterExpression, column: string): SqlFilter {
  const params: (string | number)[] = [];
  const type = (key: string): string => {
    params.push(path(key));
    return `coalesce(json_type(${column}, ?), 'null')`;
  };
  const equals = (key: string, value: MetadataValue): string => {
    checkValue(value);
    if (value === null) return `(${type(key)} = 'null')`;
    if (typeof value === 'boolean') return `(${type(key)} = '${value ? 'true' : 'false'}')`;
    return typed(key, '=', value);
  };
  // The comparison first: it fails for most rows and spares the type check (short circuit).
  const typed = (key: string, operator: string, value: string | number): string => {
    params.push(path(key), value);
    const types = typeof value === 'number' ? `IN ('integer', 'real')` : `= 'text'`;
    return `(coalesce(json_extract(${column}, ?) ${operator} ?, 0) AND ${type(key)} ${types})`;
  };
  const order = (key: string, operator: FilterOperator, value: MetadataValue): string => {
    checkValue(value);
    // The one piece of the tree that reaches the SQL text, so it is checked against a list.
    if (!ORDER_OPERATORS.includes(operator)) {
      throw new InvalidOptionsError({
        option: 'filter',
        value: operator,
        expected: 'a comparison operator: ==, !=, <, <=, >, >=',
      });
    }
    if (typeof value !== 'number' && typeof value !== 'string') return '0';
    return typed(key, operator, value);
  };
  const visit = (node: FilterExpression): string => {
    if (typeof node !== 'object' || (node as FilterExpression | null) === null) throw badNode(node);
    switch (node.type) {
      case 'and':
        return `(${visit(node.left)} AND ${visit(node.right)})`;
      case 'or':
        return `(${visit(node.left)} OR ${visit(node.right)})`;
      case 'not':
        return `(NOT ${visit(node.operand)})`;
      case 'in':
      case 'nin': {
        if (!isList(node.values)) {
          throw new InvalidOptionsError({
            option: 'filter',
            value: node.values,
            expected: `an array of values for ${node.type.toUpperCase()}`,
          });
        }
        const any =
          node.values.length === 0
            ? '0'
            : `(${node.values.map((value) => equals(node.key, value)).join(' OR ')})`;
        return node.type === 'in' ? any : `(NOT ${any})`;
      }
      case 'compare':
        if (node.operator === '==') return equals(node.key, node.value);
        if (node.operator === '!=') return `(NOT ${equals(node.key, node.value)})`;
        return order(node.key, node.operator, node.value);
      default: {
        const unknown: never = node;
        throw badNode(unknown);
      }
    }
  };
  return { sql: visit(filter), params };
}

const badNode = (node: unknown): InvalidOptionsError =>
  new InvalidOptionsError({
    option: 'filter',
    value: node,
    expected: 'a FilterExpression node (and, or, not, in, nin, compare)',
  });

const isList = (value: unknown): value is readonly unknown[] => Array.isArray(value);

const ORDER_OPERATORS: readonly FilterOperator[] = ['<', '<=', '>', '>='];

/** A JSON path naming one top-level key, dots included (`a.b` is a key, as in memory). */
function path(key: string): string {
  if (typeof key !== 'string' || key.includes('"')) {
    throw new InvalidOptionsError({
      option: 'filter',
      value: key,
      expected: 'metadata keys without a double quote (SQLite JSON paths cannot name them)',
    });
  }
  return `$."${key}"`;
}

function checkValue(value: unknown): void {
  if (!isMetadataValue(value)) {
    throw new InvalidOptionsError({
      option: 'filter',
      value,
      expected: 'filter values that are strings, finite numbers, booleans or null',
    });
  }
}
