import {
  FilterExpressionError,
  InvalidOptionsError,
  matchesFilter,
  parseFilterExpression,
} from '../../lib/index';

const passes = (expression: string, metadata: Record<string, string | number | boolean | null>) =>
  matchesFilter(parseFilterExpression(expression), metadata);

const failure = (expression: string, options = {}): FilterExpressionError => {
  try {
    parseFilterExpression(expression, options);
  } catch (error) {
    if (FilterExpressionError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`"${expression}" parsed`);
};

describe('parseFilterExpression', () => {
  it('parses comparisons, lists and boolean operators into a tree', () => {
    expect(
      parseFilterExpression("genre == 'drama' && (year >= 2020 || award IN ['oscar', 1])"),
    ).toEqual({
      type: 'and',
      left: { type: 'compare', key: 'genre', operator: '==', value: 'drama' },
      right: {
        type: 'or',
        left: { type: 'compare', key: 'year', operator: '>=', value: 2020 },
        right: { type: 'in', key: 'award', values: ['oscar', 1] },
      },
    });
  });

  it('binds && tighter than ||, accepts keywords in any case and NOT IN', () => {
    expect(parseFilterExpression('a == 1 || b == 2 and c == 3')).toMatchObject({
      type: 'or',
      right: { type: 'and' },
    });
    expect(parseFilterExpression('a not in [1] AND NOT b nin [2]')).toEqual({
      type: 'and',
      left: { type: 'nin', key: 'a', values: [1] },
      right: { type: 'not', operand: { type: 'nin', key: 'b', values: [2] } },
    });
  });

  it('reads strings with either quote and escapes, numbers, booleans and null', () => {
    expect(
      parseFilterExpression(
        `a == "it's" || b == 'say \\'hi\\'' || c == -1.5e2 || d == TRUE || e == null`,
      ),
    ).toMatchObject({
      right: { value: null },
    });
    expect(passes(`name == "it's"`, { name: "it's" })).toBe(true);
    expect(passes(`q == 'say \\'hi\\''`, { q: "say 'hi'" })).toBe(true);
    expect(passes('n == -1.5e2', { n: -150 })).toBe(true);
  });

  it.each([
    ["topic == 'x", 9, 'unexpected character'],
    ['topic ==', 8, 'expected a string'],
    ['== 1', 0, 'expected a metadata key'],
    ['a = 1', 2, 'unexpected character'],
    ['(a == 1', 7, 'expected ")"'],
    ['a == 1 b == 2', 7, 'unexpected "b"'],
    ['a IN [1,', 8, 'expected a string'],
    ['and == 1', 0, 'expected a metadata key'],
    ['a NOT == 1', 6, 'expected IN after NOT'],
    ['   ', 0, 'empty'],
  ])('fails %p at offset %p with a FilterExpressionError', (expression, position, problem) => {
    const error = failure(expression);
    expect(error.position).toBe(position);
    expect(error.expression).toBe(expression);
    expect(error.message).toContain(problem);
  });

  it('bounds length and nesting (maxLength, maxDepth)', () => {
    expect(failure('a == 1', { maxLength: 5 }).message).toContain('maxLength');
    const deep = `${'('.repeat(40)}a == 1${')'.repeat(40)}`;
    expect(failure(deep).message).toContain('maxDepth (32)');
    expect(parseFilterExpression(deep, { maxDepth: 64 })).toMatchObject({ type: 'compare' });
    expect(failure(`${'!'.repeat(100)}a == 1`).message).toContain('maxDepth');
    expect(() => parseFilterExpression('a == 1', { maxDepth: 0 })).toThrow(InvalidOptionsError);
  });
});

describe('matchesFilter', () => {
  it('compares numbers and strings, never across types', () => {
    expect(passes('year > 2020', { year: 2021 })).toBe(true);
    expect(passes("year > '2020'", { year: 2021 })).toBe(false);
    expect(passes("name < 'b'", { name: 'a' })).toBe(true);
    expect(passes('year <= 2020', { year: 2020 })).toBe(true);
    expect(passes('year < 2020', { year: 2020 })).toBe(false);
  });

  it('reads a missing key as null', () => {
    expect(passes('year == null', {})).toBe(true);
    expect(passes("topic != 'x'", {})).toBe(true);
    expect(passes('year > 1', {})).toBe(false);
    expect(passes("topic IN ['x']", {})).toBe(false);
    expect(passes("topic NIN ['x']", {})).toBe(true);
  });

  it('does not read inherited properties', () => {
    expect(passes('toString == null', {})).toBe(true);
  });

  it('combines with and, or, not', () => {
    expect(passes('a == 1 && !(b == 2)', { a: 1, b: 3 })).toBe(true);
    expect(passes('a == 1 && !(b == 2)', { a: 1, b: 2 })).toBe(false);
    expect(passes('a == 2 || b == 2', { a: 1, b: 2 })).toBe(true);
  });
});
