import { parseJson } from '../../lib/schema/parse-json';

const ESCAPED_PROTO_KEYS = [
  '__proto__',
  '\\u005f_proto__',
  '__pro\\u0074o__',
  '\\u005f\\u005f\\u0070\\u0072\\u006f\\u0074\\u006f\\u005f\\u005f',
  '\\u005F_proto__',
];

function value(text: string, maxDepth = 64): unknown {
  const parsed = parseJson(text, maxDepth);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

describe('parseJson', () => {
  it.each(ESCAPED_PROTO_KEYS)('drops the key "%s" at every depth', (key) => {
    const parsed = value(`{"${key}": {"polluted": true}, "a": [{"${key}": {"x": 1}, "b": 2}]}`);
    expect(parsed).toEqual({ a: [{ b: 2 }] });
    expect(Object.prototype.hasOwnProperty.call(parsed, '__proto__')).toBe(false);
    const inner = (parsed as { a: object[] }).a[0];
    expect(Object.prototype.hasOwnProperty.call(inner, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('drops a constructor key whose value has a prototype key, escaped or not', () => {
    const parsed = value(
      '{"constructor": {"prototype": {"isAdmin": true}}, "b": {"\\u0063onstructor": {"prototype": {}}}}',
    );
    expect(parsed).toEqual({ b: {} });
    expect(Object.keys(parsed as object)).toEqual(['b']);
  });

  it('keeps a constructor that is not a path to a prototype, and prototype keys elsewhere', () => {
    expect(
      value('{"constructor": "Ferrari", "prototype": 1, "c": {"constructor": {"name": "x"}}}'),
    ).toEqual({
      constructor: 'Ferrari',
      prototype: 1,
      c: { constructor: { name: 'x' } },
    });
  });

  it('keeps escaped keys that decode to ordinary names, and "__proto__" as a string value', () => {
    expect(value('{"n\\u0061me": "__proto__", "list": ["__proto__"]}')).toEqual({
      name: '__proto__',
      list: ['__proto__'],
    });
  });

  it('accepts maxDepth levels and rejects one more as nested too deeply', () => {
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    expect(parseJson(nested(64), 64).ok).toBe(true);
    expect(parseJson(nested(65), 64)).toMatchObject({
      ok: false,
      reason: 'too-deep',
      message: 'is nested too deeply: more than 64 levels of objects and arrays (maxDepth 64)',
    });
    expect(parseJson('{"a": {"b": [1]}}', 2)).toMatchObject({ ok: false, reason: 'too-deep' });
    expect(parseJson('{"a": {"b": [1]}}', 3).ok).toBe(true);
  });

  it('does not count brackets inside strings', () => {
    expect(value(`{"text": "${'['.repeat(200)}"}`, 2)).toEqual({ text: '['.repeat(200) });
  });

  it('says "nested too deeply" for very deep JSON with unsafe keys, never a stack overflow', () => {
    // With a reviver, JSON.parse recurses: this text used to fail with "Maximum call stack".
    const deep = '{"__proto__": 1, "a": ' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
    const parsed = parseJson(deep, 64);
    expect(parsed).toMatchObject({ ok: false, reason: 'too-deep' });
    expect(parsed.ok || parsed.message).not.toMatch(/call stack/);
  });

  it('stays linear in its input: 2 MB too deep is refused by the depth scan alone, 600 KB of 60-deep arrays take one native parse', () => {
    // Counted, not timed: the depth scan is one pass over the text; what could be
    // superlinear (a recursive parse of the deep input, a reviver pass) must not run.
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
      expect(parseJson(deep, 64)).toMatchObject({ ok: false, reason: 'too-deep' });
      expect(parse).not.toHaveBeenCalled();
      const wide = `[${Array.from({ length: 5_000 }, () => '['.repeat(60) + ']'.repeat(60)).join(',')}]`;
      expect(parseJson(wide, 64).ok).toBe(true);
      expect(parse).toHaveBeenCalledTimes(1);
      expect(parse.mock.calls[0]).toHaveLength(1); // no reviver: no key to drop
    } finally {
      parse.mockRestore();
    }
  });

  it('reports malformed JSON with the parser reason', () => {
    expect(parseJson('{"a": }', 64)).toMatchObject({
      ok: false,
      reason: 'malformed-json',
      message: expect.stringMatching(/^is not valid JSON \(/),
    });
  });

  it('parses numbers as JSON.parse does: 1e400 is Infinity (the schema check rejects it)', () => {
    expect(value('{"n": 1e400}')).toEqual({ n: Infinity });
  });
});
