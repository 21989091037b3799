import { lastValueFrom } from 'rxjs';
import type { JsonSchema } from '../../lib/core/tool-definition';
import { ToolArgumentsError } from '../../lib/errors/tool-arguments-error';
import { executeToolCalls } from '../../lib/tools/execute-tool-calls';
import type { FromJsonSchema } from '../../lib/schema/from-json-schema';
import { tool } from '../../lib/tools/tool-fn';

// Type tests: `tsc` (npm run lint) checks every `expectType<Equal<…>>()` and
// `// @ts-expect-error` line; jest runs the same values through the tool's ajv validation,
// so each test also shows that the type and the validator agree on what is an argument.
type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<_T extends true>(): void {}

const context = { values: {}, signal: new AbortController().signal, toolCallId: 'c1', round: 1 };

/** A tool that returns its validated arguments, so they can be checked at run time. */
function echo<const S extends JsonSchema>(parameters: S) {
  return tool({ name: 'echo', description: 'Echo', parameters, execute: (args) => args });
}

/** The validated arguments, or the validator's issues. */
function check(t: { parseArguments(text: string): unknown }, value: unknown): unknown {
  try {
    return t.parseArguments(JSON.stringify(value));
  } catch (error) {
    if (error instanceof ToolArgumentsError) return { issues: error.issues };
    throw error;
  }
}

describe('FromJsonSchema: type lists, enum and const', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: ['string', 'null'] },
      count: { type: ['integer', 'boolean'] },
      unit: { enum: ['C', 'F'] },
      mixed: { enum: ['a', 1, null] },
      version: { const: 2 },
    },
    required: ['name', 'count', 'version'],
  } as const;
  type Args = FromJsonSchema<typeof schema>;

  it('reads a type list as the union of its types, enum as its values, const as the literal', () => {
    expectType<
      Equal<
        Args,
        {
          name: string | null;
          count: number | boolean;
          version: 2;
          unit?: 'C' | 'F';
          mixed?: 'a' | 1 | null;
        }
      >
    >();
    const good: Args = { name: null, count: true, version: 2, unit: 'F', mixed: 1 };
    expect(check(echo(schema), good)).toEqual(good);
  });

  it('rejects at compile time what the validator rejects at run time', () => {
    const t = echo(schema);
    // @ts-expect-error a number is neither a string nor null
    const name: Args = { name: 3, count: 1, version: 2 };
    // @ts-expect-error 'K' is not in the enum
    const unit: Args = { name: 'x', count: 1, version: 2, unit: 'K' };
    // @ts-expect-error version must be exactly 2
    const version: Args = { name: 'x', count: 1, version: 3 };
    // @ts-expect-error a string is not an integer or a boolean
    const count: Args = { name: 'x', count: 'many', version: 2 };
    for (const bad of [name, unit, version, count]) {
      expect(check(t, bad)).toEqual({ issues: [expect.any(String)] });
    }
  });
});

describe('FromJsonSchema: anyOf and oneOf', () => {
  it('types a oneOf parameter as the union of its branches, and the tool runs on real arguments', async () => {
    const when = tool({
      name: 'when',
      description: 'A date or a number of days from now',
      parameters: {
        type: 'object',
        properties: {
          at: {
            oneOf: [
              { type: 'string', format: 'date' },
              { type: 'integer', minimum: 0 },
              { type: 'array', items: { type: 'string', format: 'date' }, minItems: 1 },
            ],
          },
        },
        required: ['at'],
      },
      execute: ({ at }) => {
        expectType<Equal<typeof at, string | number | string[]>>();
        if (typeof at === 'string') return `on ${at}`;
        if (typeof at === 'number') return `in ${at} days`;
        return `on ${at.join(' and ')}`;
      },
    });
    const run = (text: string) => when.execute(when.parseArguments(text), context);
    expect(run('{"at":"2026-01-02"}')).toBe('on 2026-01-02');
    expect(run('{"at":3}')).toBe('in 3 days');
    expect(run('{"at":["2026-01-02","2026-01-09"]}')).toBe('on 2026-01-02 and 2026-01-09');
    expect(() => run('{"at":true}')).toThrow(ToolArgumentsError);
    expect(() => run('{"at":"tomorrow"}')).toThrow(ToolArgumentsError);

    const [result] = await lastValueFrom(
      executeToolCalls({
        toolCalls: [{ id: 'c1', name: 'when', arguments: '{"at":2}' }],
        tools: [when],
      }),
    );
    expect(result).toMatchObject({ toolCallId: 'c1', content: 'in 2 days' });
  });

  it('reads each branch together with the parent schema: a discriminated union', () => {
    const shape = echo({
      type: 'object',
      properties: { kind: { type: 'string', enum: ['circle', 'rect'] }, label: { type: 'string' } },
      required: ['kind'],
      oneOf: [
        {
          properties: { kind: { const: 'circle' }, radius: { type: 'number' } },
          required: ['radius'],
        },
        {
          properties: {
            kind: { const: 'rect' },
            width: { type: 'number' },
            height: { type: 'number' },
          },
          required: ['width', 'height'],
        },
      ],
    });
    type Shape = ReturnType<typeof shape.parseArguments>;
    expectType<
      Equal<
        Shape,
        | { kind: 'circle'; radius: number; label?: string }
        | { kind: 'rect'; width: number; height: number; label?: string }
      >
    >();
    const area = (s: Shape): number => {
      switch (s.kind) {
        case 'circle':
          return Math.round(Math.PI * s.radius ** 2);
        case 'rect':
          return s.width * s.height;
        default: {
          const never: never = s;
          return never;
        }
      }
    };
    expect(area(shape.parseArguments('{"kind":"circle","radius":2}'))).toBe(13);
    expect(area(shape.parseArguments('{"kind":"rect","width":2,"height":3}'))).toBe(6);
    // @ts-expect-error a circle needs its radius
    const noRadius: Shape = { kind: 'circle', width: 2, height: 3 };
    expect(check(shape, noRadius)).toHaveProperty('issues');
  });

  it('lets anyOf branches require different properties of the parent', () => {
    const schema = {
      type: 'object',
      properties: { email: { type: 'string' }, phone: { type: 'string' } },
      anyOf: [{ required: ['email'] }, { required: ['phone'] }],
    } as const;
    type Contact = FromJsonSchema<typeof schema>;
    expectType<
      Equal<Contact, { email: string; phone?: string } | { phone: string; email?: string }>
    >();
    const both: Contact = { email: 'a@b.c', phone: '1' };
    expect(check(echo(schema), both)).toEqual(both);
    // @ts-expect-error one of them is required
    const neither: Contact = {};
    expect(check(echo(schema), neither)).toHaveProperty('issues');
  });

  it('reads nested and boolean branches: false adds nothing, true is unknown', () => {
    const schema = {
      type: 'object',
      properties: {
        id: {
          anyOf: [{ type: 'string' }, { anyOf: [{ type: 'integer' }, { type: 'null' }] }, false],
        },
        extra: { anyOf: [true, { type: 'string' }] },
      },
      required: ['id'],
    } as const;
    type Args = FromJsonSchema<typeof schema>;
    expectType<Equal<Args, { id: string | number | null; extra?: unknown }>>();
    const good: Args = { id: null, extra: [1] };
    expect(check(echo(schema), good)).toEqual(good);
    // @ts-expect-error an id is a string, an integer or null
    const bad: Args = { id: true };
    expect(check(echo(schema), bad)).toHaveProperty('issues');
  });
});

describe('FromJsonSchema: allOf', () => {
  it('merges its members into one object type; required applies across members', () => {
    const schema = {
      allOf: [
        { type: 'object', properties: { id: { type: 'string' } } },
        { type: 'object', properties: { score: { type: 'number' } }, required: ['id', 'score'] },
        { properties: { score: { type: 'integer' }, note: { type: 'string' } } },
      ],
    } as const;
    type Args = FromJsonSchema<typeof schema>;
    expectType<Equal<Args, { id: string; score: number; note?: string }>>();
    const good: Args = { id: 'a', score: 2 };
    expect(check(echo(schema), good)).toEqual(good);
    // @ts-expect-error score is required by the second member
    const missing: Args = { id: 'a' };
    expect(check(echo(schema), missing)).toHaveProperty('issues');
  });

  it('narrows types by intersecting them, an integer counting as a number', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: ['number', 'string'], allOf: [{ type: ['integer', 'null'] }] },
        s: { type: ['string', 'null'], allOf: [{ enum: ['x', 'y', 1] }, { enum: ['y', 1] }] },
      },
      required: ['n', 's'],
    } as const;
    type Args = FromJsonSchema<typeof schema>;
    expectType<Equal<Args, { n: number; s: 'y' | 1 }>>();
    expect(check(echo(schema), { n: 4, s: 'y' })).toEqual({ n: 4, s: 'y' });
    // @ts-expect-error n is an integer, never a string
    const text: Args = { n: 'four', s: 'y' };
    expect(check(echo(schema), text)).toHaveProperty('issues');
  });
});

describe('FromJsonSchema: what stays unknown', () => {
  it('is unknown for a schema not written as const, or keywords it does not read', () => {
    const loose: JsonSchema = { type: 'object', properties: { a: { type: 'string' } } };
    const t = echo(loose);
    expectType<Equal<ReturnType<typeof t.parseArguments>, unknown>>();
    expect(check(t, { a: 1 })).toHaveProperty('issues');
    const schema = {
      type: 'object',
      properties: {
        ref: { $ref: '#/$defs/name' },
        not: { not: { type: 'string' } },
        empty: {},
      },
      required: ['ref', 'not', 'empty'],
      $defs: { name: { type: 'string' } },
    } as const;
    type Args = FromJsonSchema<typeof schema>;
    expectType<Equal<Args, { ref: unknown; not: unknown; empty: unknown }>>();
    const good: Args = { ref: 'Ada', not: 1, empty: [null] };
    expect(check(echo(schema), good)).toEqual(good);
    expect(check(echo(schema), { ref: 1, not: 1, empty: 1 })).toHaveProperty('issues');
  });
});
