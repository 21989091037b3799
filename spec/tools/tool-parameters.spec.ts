import { z } from 'zod';
import { InvalidOptionsError, tool, ToolArgumentsError } from '../../lib/index';

function failure(run: () => unknown): ToolArgumentsError {
  try {
    run();
  } catch (error) {
    if (ToolArgumentsError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ToolArgumentsError');
}

const echo = (parameters: object, extra: object = {}) =>
  tool({
    name: 'echo',
    description: 'Echo',
    parameters,
    execute: (args: unknown) => args,
    ...extra,
  } as never) as {
    parseArguments(text: string): unknown;
  };

afterEach(() => {
  delete (Object.prototype as Record<string, unknown>)['polluted'];
});

describe('tool arguments: untrusted JSON', () => {
  it.each(['__proto__', '\\u005f_proto__', '__pro\\u0074o__'])(
    'drops the key "%s" at every depth',
    (key) => {
      const args = echo({ type: 'object' }).parseArguments(
        `{"${key}": {"polluted": true}, "a": {"${key}": {"polluted": true}, "b": 1}}`,
      );
      expect(args).toEqual({ a: { b: 1 } });
      expect(Object.prototype.hasOwnProperty.call(args, '__proto__')).toBe(false);
      expect(Object.prototype.hasOwnProperty.call((args as { a: object }).a, '__proto__')).toBe(
        false,
      );
    },
  );

  it('drops constructor.prototype paths before execute runs, and keeps other constructor values', () => {
    const t = echo({ type: 'object' });
    const args = t.parseArguments(
      '{"constructor": {"prototype": {"polluted": true}}, "deep": {"constructor": {"prototype": {}}}, "maker": {"constructor": "Ferrari"}}',
    );
    expect(args).toEqual({ deep: {}, maker: { constructor: 'Ferrari' } });
  });

  it.each([
    ['integer', { type: 'integer', minimum: 0 }],
    ['number', { type: 'number' }],
  ])('rejects 1e400 (Infinity) for type %s', (_label, n) => {
    const t = echo({ type: 'object', properties: { n }, required: ['n'] });
    expect(failure(() => t.parseArguments('{"n": 1e400}')).issues).toEqual([
      `/n: must be ${_label}`,
    ]);
    expect(() => t.parseArguments('{"n": -1e400}')).toThrow(ToolArgumentsError);
    expect(t.parseArguments('{"n": 7}')).toEqual({ n: 7 });
  });

  it('rejects Infinity with zod number and int schemas', () => {
    const t = echo(z.object({ n: z.number(), i: z.int() }));
    expect(failure(() => t.parseArguments('{"n": 1e400, "i": 1e400}')).issues).toHaveLength(2);
  });

  it('rejects integers beyond 2^53 - 1 for type integer, not for type number', () => {
    const t = echo({
      type: 'object',
      properties: { id: { type: 'integer' }, x: { type: 'number' } },
    });
    expect(failure(() => t.parseArguments('{"id": 9007199254740993}')).issues).toEqual([
      '/id: must be a safe integer (at most 2^53 - 1 in magnitude; larger integers lose precision, send them as strings)',
    ]);
    expect(t.parseArguments('{"id": -9007199254740991, "x": 1e300}')).toEqual({
      id: -9007199254740991,
      x: 1e300,
    });
  });

  it('says "nested too deeply" for deep arguments, never "Maximum call stack"', () => {
    const depth = 50_000;
    const text = `{"__proto__": 1, "a": ${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const error = failure(() => echo({ type: 'object' }).parseArguments(text));
    expect(error.issues).toEqual([
      '(root): is nested too deeply: more than 64 levels of objects and arrays (maxDepth 64)',
    ]);
    expect(error.message).not.toMatch(/call stack/);
  });

  it('takes its limits from argumentLimits', () => {
    const t = echo(
      { type: 'array', items: { type: 'string' } },
      { argumentLimits: { maxDepth: 2, maxIssues: 3 } },
    );
    expect(t.parseArguments('["a"]')).toEqual(['a']);
    expect(failure(() => t.parseArguments('[[[]]]')).issues[0]).toMatch(/nested too deeply/);
    expect(failure(() => t.parseArguments('[1, 2, 3, 4, 5]')).issues).toEqual([
      '/0: must be string',
      '/1: must be string',
      '/2: must be string',
      '… and 2 more issue(s) not shown',
    ]);
  });

  it('keeps the first 20 issues of a huge invalid argument list, and counts the rest', () => {
    const t = echo({ type: 'array', items: { type: 'string' } });
    const error = failure(() =>
      t.parseArguments(JSON.stringify(Array.from({ length: 100_000 }, (_, i) => i))),
    );
    expect(error.issues).toHaveLength(21);
    expect(error.issues[20]).toBe('… and 99980 more issue(s) not shown');
    expect(error.message.length).toBeLessThan(2000);
  });

  it('rejects bad limits with an InvalidOptionsError naming them', () => {
    expect(() => echo({}, { argumentLimits: { maxDepth: 0 } })).toThrow(InvalidOptionsError);
    expect(() => echo({}, { argumentLimits: { maxIssues: -1 } })).toThrow(
      expect.objectContaining({ option: 'echo.argumentLimits.maxIssues' }),
    );
  });
});
