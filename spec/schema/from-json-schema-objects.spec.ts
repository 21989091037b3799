import { lastValueFrom, of } from 'rxjs';
import type { JsonSchema } from '../../lib/core/tool-definition';
import { ChatClient } from '../../lib/client/chat-client';
import { EntityParseError } from '../../lib/errors/entity-parse-error';
import { ToolArgumentsError } from '../../lib/errors/tool-arguments-error';
import { parseEntity } from '../../lib/output/parse-entity';
import { MockChatModel } from '../../lib/testing/mock-chat-model';
import type { FromJsonSchema } from '../../lib/schema/from-json-schema';
import { tool } from '../../lib/tools/tool-fn';

// Type tests checked by `tsc` (npm run lint); the same values run through ajv in jest.
type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<_T extends true>(): void {}

/** Tool arguments are validated by the tool's ajv (draft-07 keywords). */
function checkArguments<const S extends JsonSchema>(parameters: S, value: unknown): unknown {
  const t = tool({ name: 'echo', description: 'Echo', parameters, execute: (args) => args });
  try {
    return t.parseArguments(JSON.stringify(value));
  } catch (error) {
    if (error instanceof ToolArgumentsError) return { issues: error.issues };
    throw error;
  }
}

/** Answers are validated as output schemas (ajv, draft 2020-12 by default). */
async function checkAnswer(schema: JsonSchema, value: unknown): Promise<unknown> {
  try {
    return await lastValueFrom(of({ text: JSON.stringify(value) }).pipe(parseEntity(schema)));
  } catch (error) {
    if (error instanceof EntityParseError) return { errors: error.errors };
    throw error;
  }
}

describe('FromJsonSchema: objects', () => {
  it('keeps properties and required as before: exact keys, optional unless required', () => {
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
      additionalProperties: false,
    } as const;
    type Args = FromJsonSchema<typeof schema>;
    expectType<Equal<Args, { city: string; days?: number }>>();
    expect(checkArguments(schema, { city: 'Paris' })).toEqual({ city: 'Paris' });
    // @ts-expect-error no other keys
    const extra: Args = { city: 'Paris', country: 'FR' };
    expect(checkArguments(schema, extra)).toHaveProperty('issues');
  });

  it('reads additionalProperties as a schema as an index signature', () => {
    const scores = {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
      additionalProperties: { type: 'number' },
    } as const;
    type Scores = FromJsonSchema<typeof scores>;
    // The index signature admits the named property's type too, so literals can be written.
    expectType<Equal<Scores, { [key: string]: string | number; name: string }>>();
    const good: Scores = { name: 'Ada', math: 3, art: 2 };
    const name: string = good.name;
    expect(checkArguments(scores, good)).toEqual(good);
    expect(name).toBe('Ada');
    // @ts-expect-error other values are numbers (or the name's string), not booleans
    const bad: Scores = { name: 'Ada', math: true };
    expect(checkArguments(scores, bad)).toHaveProperty('issues');
  });

  it('types an object without properties by its additionalProperties', () => {
    const schema = {
      type: 'object',
      properties: {
        flags: { type: 'object', additionalProperties: { type: 'boolean' } },
        none: { type: 'object', additionalProperties: false },
        any: { type: 'object' },
      },
      required: ['flags', 'none', 'any'],
    } as const;
    type Args = FromJsonSchema<typeof schema>;
    expectType<
      Equal<
        Args,
        {
          flags: Record<string, boolean>;
          none: Record<string, never>;
          any: Record<string, unknown>;
        }
      >
    >();
    const good: Args = { flags: { dark: true }, none: {}, any: { x: [1] } };
    expect(checkArguments(schema, good)).toEqual(good);
    // @ts-expect-error flags are booleans
    const flags: Args = { flags: { dark: 'yes' }, none: {}, any: {} };
    // @ts-expect-error none allows no key
    const none: Args = { flags: {}, none: { x: 1 }, any: {} };
    expect(checkArguments(schema, flags)).toHaveProperty('issues');
    expect(checkArguments(schema, none)).toHaveProperty('issues');
  });
});

describe('FromJsonSchema: arrays and tuples', () => {
  it('types items as the element type, and an array without items as unknown[]', () => {
    const schema = {
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' } },
        rows: { type: 'array', items: { type: 'array', items: { type: ['number', 'null'] } } },
        any: { type: 'array' },
      },
      required: ['tags', 'rows', 'any'],
    } as const;
    type Args = FromJsonSchema<typeof schema>;
    expectType<Equal<Args, { tags: string[]; rows: (number | null)[][]; any: unknown[] }>>();
    const good: Args = { tags: ['a'], rows: [[1, null]], any: [{}] };
    expect(checkArguments(schema, good)).toEqual(good);
    // @ts-expect-error rows hold numbers or null
    const bad: Args = { tags: [], rows: [['1']], any: [] };
    expect(checkArguments(schema, bad)).toHaveProperty('issues');
  });

  it('types prefixItems as a tuple: required up to minItems, then the rest from items', async () => {
    const closed = {
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
      minItems: 2,
      items: false,
    } as const;
    const open = {
      type: 'array',
      prefixItems: [{ type: 'string' }],
      items: { type: 'integer' },
    } as const;
    type Closed = FromJsonSchema<typeof closed>;
    type Open = FromJsonSchema<typeof open>;
    expectType<Equal<Closed, [string, number, boolean?]>>();
    expectType<Equal<Open, [string?, ...number[]]>>();
    const two: Closed = ['a', 1];
    const many: Open = ['a', 1, 2];
    expect(await checkAnswer(closed, two)).toEqual(two);
    expect(await checkAnswer(open, many)).toEqual(many);
    // @ts-expect-error at most three elements
    const long: Closed = ['a', 1, true, 'x'];
    // @ts-expect-error at least two elements
    const short: Closed = ['a'];
    expect(await checkAnswer(closed, long)).toHaveProperty('errors');
    expect(await checkAnswer(closed, short)).toHaveProperty('errors');
  });

  it('types draft-07 tuples (items as a list, additionalItems) the same way', () => {
    const schema = {
      type: 'object',
      properties: {
        point: {
          type: 'array',
          items: [{ type: 'number' }, { type: 'number' }],
          minItems: 2,
          additionalItems: false,
        },
      },
      required: ['point'],
    } as const;
    type Args = FromJsonSchema<typeof schema>;
    expectType<Equal<Args, { point: [number, number] }>>();
    expect(checkArguments(schema, { point: [1, 2] })).toEqual({ point: [1, 2] });
    // @ts-expect-error exactly two numbers
    const three: Args = { point: [1, 2, 3] };
    expect(checkArguments(schema, three)).toHaveProperty('issues');
  });
});

describe('FromJsonSchema: nesting depth', () => {
  // A schema nested N objects deep around a string, built at the type level.
  type Nested<N extends unknown[]> = N extends [unknown, ...infer Rest]
    ? {
        readonly type: 'object';
        readonly properties: { readonly a: Nested<Rest> };
        readonly required: readonly ['a'];
      }
    : { readonly type: 'string' };
  // What is N levels down. (`Equal` on the whole nested type is not reliable: TypeScript
  // stops comparing deeply nested instantiations and calls them identical.)
  type At<T, N extends unknown[]> = N extends [unknown, ...infer Rest]
    ? T extends { a: infer Inner }
      ? At<Inner, Rest>
      : 'not an object'
    : T;
  type Twelve = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

  it('reads 12 levels of nesting, and stops at unknown below that', () => {
    expectType<Equal<At<FromJsonSchema<Nested<Twelve>>, Twelve>, string>>();
    expectType<Equal<At<FromJsonSchema<Nested<[0, ...Twelve]>>, Twelve>, { a: unknown }>>();
    const deep = {
      a: { a: { a: { a: { a: { a: { a: { a: { a: { a: { a: { a: 's' } } } } } } } } } } },
    };
    const typed: FromJsonSchema<Nested<Twelve>> = deep;
    const schema = nestedSchema(12) as Nested<Twelve>;
    expect(checkArguments(schema, typed)).toEqual(deep);
    expect(checkArguments(schema, { a: 1 })).toHaveProperty('issues');
  });
});

describe('FromJsonSchema through entity()', () => {
  it('types an entity read with a oneOf schema, validated and narrowed', async () => {
    const answer = {
      type: 'object',
      properties: {
        result: {
          oneOf: [
            {
              type: 'object',
              properties: { ok: { const: true }, value: { type: 'number' } },
              required: ['ok', 'value'],
            },
            {
              type: 'object',
              properties: { ok: { const: false }, error: { type: 'string' } },
              required: ['ok', 'error'],
            },
          ],
        },
      },
      required: ['result'],
    } as const;
    const model = MockChatModel.script([{ text: '{"result":{"ok":false,"error":"no data"}}' }]);
    const entity = await lastValueFrom(ChatClient.create(model).prompt('x').call().entity(answer));
    expectType<
      Equal<typeof entity, { result: { ok: true; value: number } | { ok: false; error: string } }>
    >();
    const text = entity.result.ok ? `= ${entity.result.value}` : `! ${entity.result.error}`;
    expect(text).toBe('! no data');
    const bad = MockChatModel.script([{ text: '{"result":{"ok":true,"error":"x"}}' }]);
    await expect(
      lastValueFrom(ChatClient.create(bad).prompt('x').call().entity(answer)),
    ).rejects.toBeInstanceOf(EntityParseError);
  });
});

function nestedSchema(levels: number): JsonSchema {
  return levels === 0
    ? { type: 'string' }
    : { type: 'object', properties: { a: nestedSchema(levels - 1) }, required: ['a'] };
}
