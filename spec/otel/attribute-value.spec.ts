import { toAttributes, toAttributeValue } from '../../lib/otel/attribute-value';

describe('toAttributeValue', () => {
  it('keeps primitives and arrays of one primitive type', () => {
    expect(toAttributeValue('a', 10)).toBe('a');
    expect(toAttributeValue(3.5, 10)).toBe(3.5);
    expect(toAttributeValue(false, 10)).toBe(false);
    expect(toAttributeValue(['a', 'b'], 10)).toEqual(['a', 'b']);
    expect(toAttributeValue([1, 2], 10)).toEqual([1, 2]);
  });

  it('serializes objects and mixed arrays as JSON', () => {
    expect(toAttributeValue({ a: [1, { b: 2 }] }, 100)).toBe('{"a":[1,{"b":2}]}');
    expect(toAttributeValue([1, 'x'], 100)).toBe('[1,"x"]');
    expect(toAttributeValue([], 100)).toBe('[]');
  });

  it('drops what has no JSON, never throws', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const throwing = {
      toJSON() {
        throw new Error('no');
      },
    };
    expect(toAttributeValue(cyclic, 100)).toBeUndefined();
    expect(toAttributeValue(throwing, 100)).toBeUndefined();
    expect(toAttributeValue({ big: 1n }, 100)).toBeUndefined();
    expect(toAttributeValue(() => 1, 100)).toBeUndefined();
    expect(toAttributeValue(Symbol('s'), 100)).toBeUndefined();
    expect(toAttributeValue(null, 100)).toBeUndefined();
  });

  it('cuts long strings, alone or in arrays', () => {
    expect(toAttributeValue('abcdef', 3)).toBe('abc…[truncated]');
    expect(toAttributeValue(['abcdef'], 3)).toEqual(['abc…[truncated]']);
    expect(toAttributeValue({ text: 'abcdef' }, 5)).toBe('{"tex…[truncated]');
  });
});

describe('toAttributes', () => {
  it('keeps the entries that have a value, even from a record with a throwing getter', () => {
    const record = {
      a: 1,
      get b(): number {
        throw new Error('getter');
      },
    };
    expect(toAttributes(record, 10)).toEqual({ a: 1 });
    expect(toAttributes('not a record', 10)).toEqual({});
    expect(toAttributes(undefined, 10)).toEqual({});
  });
});
