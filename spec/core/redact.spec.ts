import { redact } from '../../lib/core/redact';

/** `{ a: { a: … { [leaf]: value } } }`, `depth` levels deep, built without recursion. */
function nested(depth: number, leaf: Record<string, unknown>): Record<string, unknown> {
  let value: Record<string, unknown> = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('redact', () => {
  it('redacts secret-looking keys at any depth, never returning a raw subtree', () => {
    const value = nested(12, { apiKey: 'sk-deep-secret', user: 'u1' });
    const copy = redact(value, Infinity);
    expect(JSON.stringify(copy)).not.toContain('sk-deep-secret');
    expect(JSON.stringify(copy)).toContain('"apiKey":"[redacted]","user":"u1"');
  });

  it('handles 100,000 levels without overflowing the stack', () => {
    const value = nested(100_000, { password: 'hunter2' });
    let copy = redact(value, Infinity) as Record<string, unknown>;
    for (let i = 0; i < 100_000; i++) copy = copy['a'] as Record<string, unknown>;
    expect(copy).toEqual({ password: '[redacted]' });
  });

  it('summarizes objects past maxDepth as [truncated], keeping shallower values', () => {
    const copy = redact({ n: 1, deep: nested(3, { token: 'x', y: 2 }) }, 2);
    expect(copy).toEqual({ n: 1, deep: { a: { a: '[truncated]' } } });
  });

  it('logs cycles as [circular] and keeps shared subtrees shared (linear in size)', () => {
    const cyclic: Record<string, unknown> = { name: 'root' };
    cyclic['self'] = cyclic;
    cyclic['list'] = [cyclic, { back: cyclic }];
    expect(redact(cyclic, Infinity)).toEqual({
      name: 'root',
      self: '[circular]',
      list: ['[circular]', { back: '[circular]' }],
    });
    // 2^60 paths, 61 objects: each object is copied once
    let dag: unknown = { secret: 's' };
    for (let i = 0; i < 60; i++) dag = [dag, dag];
    const copy = redact(dag, Infinity) as unknown[];
    expect(copy[0]).toBe(copy[1]);
  });

  it('keeps a "__proto__" key as an own property without touching prototypes', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true, "authToken": "t"}}') as object;
    const copy = redact(value, Infinity) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({
      polluted: true,
      authToken: '[redacted]',
    });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('keeps token counts, redacts token strings, and keeps key order and array holes', () => {
    const list: number[] = new Array<number>(3);
    list[0] = 1;
    list[2] = 3;
    const copy = redact(
      { maxTokens: 100, max_completion_tokens: 5, tokens: 'abc', z: 1, list },
      Infinity,
    );
    expect(copy).toEqual({
      maxTokens: 100,
      max_completion_tokens: 5,
      tokens: '[redacted]',
      z: 1,
      list: [1, undefined, 3],
    });
    expect(1 in (copy as { list: unknown[] }).list).toBe(false);
    expect(Object.keys(copy as object)).toEqual([
      'maxTokens',
      'max_completion_tokens',
      'tokens',
      'z',
      'list',
    ]);
  });

  it('logs an object whose properties cannot be read as [unreadable]', () => {
    const hostile = {
      get boom(): never {
        throw new Error('getter');
      },
    };
    expect(redact({ ok: 1, hostile }, Infinity)).toEqual({ ok: 1, hostile: '[unreadable]' });
  });

  it('returns primitives as they are', () => {
    expect([null, undefined, 1, 'x', true].map((v) => redact(v, 0))).toEqual([
      null,
      undefined,
      1,
      'x',
      true,
    ]);
  });
});
