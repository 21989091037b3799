import { FilterExpressionError } from '../errors/filter-expression-error.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import type { MetadataValue } from './document.js';
import type { FilterExpression, FilterOperator } from './filter-expression.js';

/**
 * Limits of {@link parseFilterExpression}; filters may come from users, so both are bounded.
 *
 * @example
 * ```ts
 * import { parseFilterExpression } from 'rx-advisors/rag';
 * parseFilterExpression("a == 1", { maxLength: 200, maxDepth: 8 });
 * ```
 */
export interface FilterParseOptions {
  /** Longest accepted expression, in characters; default 4096. */
  maxLength?: number;
  /** Deepest nesting of parentheses, `!` and operators; default 32. */
  maxDepth?: number;
}

const FILTER_PARSE_DEFAULTS = { maxLength: 4096, maxDepth: 32 } as const;
const FILTER_PARSE_RULES: OptionRules<FilterParseOptions> = {
  maxLength: Rules.integer(1),
  maxDepth: Rules.integer(1, 1000),
};

const OPERATORS: readonly FilterOperator[] = ['==', '!=', '<=', '>=', '<', '>'];
const TOKEN =
  /\s*(?:(&&|\|\||==|!=|<=|>=|<|>|!|\(|\)|\[|\]|,)|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_.]*))/y;

interface Token {
  kind: 'symbol' | 'string' | 'number' | 'word' | 'end';
  text: string;
  position: number;
}

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let position = 0;
  for (;;) {
    const rest = /\s*/y;
    rest.lastIndex = position;
    rest.exec(expression);
    if (rest.lastIndex >= expression.length) break;
    TOKEN.lastIndex = position;
    const match = TOKEN.exec(expression);
    if (match === null) {
      throw new FilterExpressionError({
        expression,
        position: rest.lastIndex,
        problem: `unexpected character ${JSON.stringify(expression[rest.lastIndex])}`,
      });
    }
    const [, symbol, quoted, number, word] = match;
    const at = match.index + match[0].length - (symbol ?? quoted ?? number ?? word ?? '').length;
    if (symbol !== undefined) tokens.push({ kind: 'symbol', text: symbol, position: at });
    else if (quoted !== undefined) tokens.push({ kind: 'string', text: quoted, position: at });
    else if (number !== undefined) tokens.push({ kind: 'number', text: number, position: at });
    else tokens.push({ kind: 'word', text: word ?? '', position: at });
    position = TOKEN.lastIndex;
  }
  tokens.push({ kind: 'end', text: '', position: expression.length });
  return tokens;
}

/** Recursive descent over the tokens; `depth` bounds the recursion. */
class Parser {
  private index = 0;
  constructor(
    private readonly expression: string,
    private readonly tokens: Token[],
    private readonly maxDepth: number,
  ) {}

  parse(): FilterExpression {
    const result = this.or(1);
    const token = this.peek();
    if (token.kind !== 'end') this.fail(token, `unexpected ${JSON.stringify(token.text)}`);
    return result;
  }

  private or(depth: number): FilterExpression {
    let left = this.and(depth);
    while (this.accept('||', 'OR'))
      left = { type: 'or', left, right: this.and(this.deeper(depth)) };
    return left;
  }

  private and(depth: number): FilterExpression {
    let left = this.unary(depth);
    while (this.accept('&&', 'AND'))
      left = { type: 'and', left, right: this.unary(this.deeper(depth)) };
    return left;
  }

  private unary(depth: number): FilterExpression {
    if (this.accept('!', 'NOT')) return { type: 'not', operand: this.unary(this.deeper(depth)) };
    if (this.accept('(')) {
      const inner = this.or(this.deeper(depth));
      this.expect(')');
      return inner;
    }
    return this.comparison();
  }

  private comparison(): FilterExpression {
    const keyToken = this.next();
    if (keyToken.kind !== 'word' || isKeyword(keyToken.text)) {
      this.fail(keyToken, 'expected a metadata key');
    }
    const key = keyToken.text;
    const negated = this.accept('NOT');
    if (this.accept('IN')) return { type: negated ? 'nin' : 'in', key, values: this.list() };
    if (!negated && this.accept('NIN')) return { type: 'nin', key, values: this.list() };
    if (negated) this.fail(this.peek(), 'expected IN after NOT');
    const operator = this.next();
    if (operator.kind !== 'symbol' || !OPERATORS.includes(operator.text as FilterOperator)) {
      this.fail(operator, 'expected ==, !=, <, <=, >, >=, IN or NIN');
    }
    return { type: 'compare', key, operator: operator.text as FilterOperator, value: this.value() };
  }

  private list(): MetadataValue[] {
    this.expect('[');
    const values = [this.value()];
    while (this.accept(',')) values.push(this.value());
    this.expect(']');
    return values;
  }

  private value(): MetadataValue {
    const token = this.next();
    if (token.kind === 'number') return Number(token.text);
    if (token.kind === 'string') return token.text.slice(1, -1).replace(/\\(.)/g, '$1');
    if (token.kind === 'word') {
      const word = token.text.toLowerCase();
      if (word === 'true') return true;
      if (word === 'false') return false;
      if (word === 'null') return null;
    }
    return this.fail(token, 'expected a string, a number, true, false or null');
  }

  private deeper(depth: number): number {
    if (depth >= this.maxDepth) {
      this.fail(this.peek(), `nested deeper than maxDepth (${this.maxDepth})`);
    }
    return depth + 1;
  }

  private peek(): Token {
    return this.tokens[this.index];
  }

  private next(): Token {
    const token = this.peek();
    if (token.kind !== 'end') this.index += 1;
    return token;
  }

  private accept(...texts: string[]): boolean {
    const token = this.peek();
    const text = token.kind === 'word' ? token.text.toUpperCase() : token.text;
    if ((token.kind === 'symbol' || token.kind === 'word') && texts.includes(text)) {
      this.index += 1;
      return true;
    }
    return false;
  }

  private expect(text: string): void {
    if (!this.accept(text)) this.fail(this.peek(), `expected ${JSON.stringify(text)}`);
  }

  private fail(token: Token, problem: string): never {
    const found = token.kind === 'end' ? ' (end of expression)' : '';
    throw new FilterExpressionError({
      expression: this.expression,
      position: token.position,
      problem: problem + found,
    });
  }
}

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IN', 'NIN', 'TRUE', 'FALSE', 'NULL']);
const isKeyword = (word: string): boolean => KEYWORDS.has(word.toUpperCase());

/**
 * Parses a metadata filter in the text form of Spring AI's portable filter expressions:
 * comparisons `key == 'value'` (`!=`, `<`, `<=`, `>`, `>=`), lists `key IN ['a', 'b']` and
 * `key NIN [1, 2]` (also `NOT IN`), combined with `&&`/`AND`, `||`/`OR`, `!`/`NOT` and
 * parentheses; values are single- or double-quoted strings, numbers, `true`, `false`, `null`.
 * Keywords are case-insensitive; `&&` binds tighter than `||`.
 *
 * @example
 * ```ts
 * import { parseFilterExpression } from 'rx-advisors/rag';
 * const tree = parseFilterExpression("genre == 'drama' && (year >= 2020 || award IN ['oscar'])");
 * ```
 * @param expression The text.
 * @param options Length and depth limits.
 * @returns The parsed tree.
 * @throws FilterExpressionError when the text does not parse or passes a limit.
 */
export function parseFilterExpression(
  expression: string,
  options: FilterParseOptions = {},
): FilterExpression {
  const { maxLength, maxDepth } = withDefaults(
    FILTER_PARSE_DEFAULTS,
    validateOptions(options, FILTER_PARSE_RULES),
  );
  if (typeof expression !== 'string' || expression.trim() === '') {
    throw new FilterExpressionError({
      expression: String(expression),
      position: 0,
      problem: 'the expression is empty',
    });
  }
  if (expression.length > maxLength) {
    throw new FilterExpressionError({
      expression: expression.slice(0, 200),
      position: maxLength,
      problem: `longer than maxLength (${maxLength} characters)`,
    });
  }
  return new Parser(expression, tokenize(expression), maxDepth).parse();
}
