import { extractJson } from '../../lib/index';

describe('extractJson', () => {
  it('parses an answer that is JSON', () => {
    expect(extractJson(' {"a": [1, {"b": null}]}\n')).toEqual({
      ok: true,
      value: { a: [1, { b: null }] },
    });
    expect(extractJson('[1, 2]')).toEqual({ ok: true, value: [1, 2] });
    expect(extractJson('"just a string"')).toEqual({ ok: true, value: 'just a string' });
  });

  it('takes the first fenced code block, with or without a language tag', () => {
    expect(extractJson('Here:\n```json\n{"a": 1}\n```\nBye')).toEqual({
      ok: true,
      value: { a: 1 },
    });
    expect(extractJson('```\n[true]\n```')).toEqual({ ok: true, value: [true] });
  });

  it('finds a balanced object in prose, braces inside strings included', () => {
    expect(extractJson('Sure! {"text": "a } and { b", "n": {"m": 2}} Hope it helps {x}')).toEqual({
      ok: true,
      value: { text: 'a } and { b', n: { m: 2 } },
    });
  });

  it('reports empty text, missing JSON, unbalanced and malformed JSON', () => {
    expect(extractJson('  \n')).toEqual({
      ok: false,
      issue: { path: '', message: 'the answer was empty; expected JSON' },
    });
    expect(extractJson('I cannot do that.')).toEqual({
      ok: false,
      issue: { path: '', message: 'the answer contains no JSON object or array' },
    });
    expect(extractJson('Result: {"a": [1, 2')).toEqual({
      ok: false,
      issue: { path: '', message: 'the JSON in the answer is incomplete (unbalanced brackets)' },
    });
    const malformed = extractJson('Result: {"a": 1,}');
    expect(malformed.ok).toBe(false);
    expect(!malformed.ok && malformed.issue.message).toMatch(
      /^the JSON found is not valid JSON \(/,
    );
    const fenced = extractJson('```json\n{a: 1}\n```');
    expect(!fenced.ok && fenced.issue.message).toMatch(/^the fenced code block is not valid JSON/);
  });

  it('drops __proto__ keys so a parsed answer cannot carry a prototype', () => {
    const result = extractJson(
      '{"__proto__": {"polluted": true}, "a": {"__proto__": {"x": 1}, "b": 2}}',
    );
    expect(result.ok).toBe(true);
    const value = (result as { value: Record<string, unknown> }).value;
    expect(Object.keys(value)).toEqual(['a']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(value['a']).toEqual({ b: 2 });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
