import { lastValueFrom, of, type Observable } from 'rxjs';
import { z } from 'zod';
import { InvalidOptionsError } from '../../lib/errors/invalid-options-error';
import { ToolArgumentsError } from '../../lib/errors/tool-arguments-error';
import { tool } from '../../lib/tools/tool-fn';

const citySchema = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
  required: ['city'],
} as const;

describe('tool()', () => {
  it('describes itself to the model with its JSON Schema', () => {
    const t = tool({
      name: 'getTime',
      description: 'Time',
      parameters: citySchema,
      execute: () => 'x',
    });
    expect(t.name).toBe('getTime');
    expect(t.description).toBe('Time');
    expect(t.inputSchema).toEqual(citySchema);
    expect(t.returnDirect).toBe(false);
  });

  it('types execute arguments from an inline schema', () => {
    const t = tool({
      name: 'getTime',
      description: 'Time',
      parameters: citySchema,
      execute: ({ city, days }) => {
        // compile-time checks: city is a string, days an optional number
        const c: string = city;
        const d: number | undefined = days;
        return `${c}:${d ?? 0}`;
      },
    });
    expect(t.execute(t.parseArguments('{"city":"Paris","days":2}'), context())).toBe('Paris:2');
  });

  it('rejects wrong uses of the inferred argument types at compile time', () => {
    const t = tool({
      name: 'getTime',
      description: 'Time',
      parameters: citySchema,
      execute: ({ city }) => {
        // @ts-expect-error city is a string, not a number
        const n: number = city;
        return n;
      },
    });
    const z1 = tool({
      name: 'weather',
      description: 'Weather',
      parameters: z.object({ days: z.number() }),
      execute: ({ days }) => {
        // @ts-expect-error days is a number, not a string
        const text: string = days;
        return text;
      },
    });
    expect([t.name, z1.name]).toEqual(['getTime', 'weather']);
  });

  it('types execute arguments from an explicit type argument (ajv JSONSchemaType)', () => {
    const t = tool<{ city: string }>({
      name: 'getTime',
      description: 'Time',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: ({ city }) => city.toUpperCase(),
    });
    expect(t.execute(t.parseArguments('{"city":"paris"}'), context())).toBe('PARIS');
  });

  it('rejects arguments that violate the schema with every issue', () => {
    const t = tool({
      name: 'getTime',
      description: 'Time',
      parameters: citySchema,
      execute: () => 'x',
    });
    let error: unknown;
    try {
      t.parseArguments('{"days":0}');
    } catch (e) {
      error = e;
    }
    expect(ToolArgumentsError.isInstance(error)).toBe(true);
    const failure = error as ToolArgumentsError;
    expect(failure.reason).toBe('invalid');
    expect(failure.toolName).toBe('getTime');
    expect(failure.arguments).toBe('{"days":0}');
    expect(failure.issues).toEqual(['/city: is required but missing', '/days: must be >= 1']);
    expect(failure.message).toContain('getTime');
  });

  it('rejects malformed JSON as malformed-json', () => {
    const t = tool({
      name: 'getTime',
      description: 'Time',
      parameters: citySchema,
      execute: () => 'x',
    });
    expect(() => t.parseArguments('{"city": "Par')).toThrow(
      expect.objectContaining({ reason: 'malformed-json', toolName: 'getTime' }),
    );
  });

  it('treats an empty arguments string as {}', () => {
    const t = tool({
      name: 'now',
      description: 'Now',
      parameters: { type: 'object', properties: {} },
      execute: () => 'now',
    });
    expect(t.parseArguments('')).toEqual({});
    expect(t.parseArguments('  ')).toEqual({});
  });

  it('drops __proto__ keys, so the arguments pollute no prototype', () => {
    const t = tool({
      name: 'merge',
      description: 'Merge',
      parameters: { type: 'object' },
      execute: (args): Record<string, unknown> => Object.assign({}, args),
    });
    const args = t.parseArguments(
      '{"__proto__":{"polluted":true},"a":{"__proto__":{"x":1}},"b":1}',
    );
    const merged = t.execute(args, context()) as Record<string, unknown>;
    expect(Object.keys(args as object)).toEqual(['a', 'b']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(merged['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.getPrototypeOf((args as { a: object }).a)).toBe(Object.prototype);
  });

  it('accepts a zod schema: converted with zod, validated with zod, typed from zod', () => {
    const t = tool({
      name: 'weather',
      description: 'Weather',
      parameters: z.object({ city: z.string(), unit: z.enum(['C', 'F']).default('C') }),
      execute: ({ city, unit }) => {
        const u: 'C' | 'F' = unit;
        return `${city} ${u}`;
      },
    });
    expect(t.inputSchema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['C', 'F'], default: 'C' },
      },
      required: ['city'],
    });
    expect(t.execute(t.parseArguments('{"city":"Oslo"}'), context())).toBe('Oslo C');
    expect(() => t.parseArguments('{"city":3}')).toThrow(
      expect.objectContaining({
        reason: 'invalid',
        issues: ['/city: Invalid input: expected string, received number'],
      }),
    );
  });

  it('converts results: strings as they are, other values as JSON, or with resultConverter', () => {
    const plain = tool({ name: 'a', description: '', parameters: {}, execute: (): unknown => 'x' });
    expect(plain.convertResult('text')).toBe('text');
    expect(plain.convertResult({ n: 1 })).toBe('{"n":1}');
    expect(plain.convertResult(undefined)).toBe('null');
    const custom = tool({
      name: 'b',
      description: '',
      parameters: {},
      execute: () => 42,
      resultConverter: (n) => `n=${n}`,
    });
    expect(custom.convertResult(42)).toBe('n=42');
  });

  it('keeps execute as given: a Promise or an Observable comes back unchanged', async () => {
    const t = tool({ name: 'a', description: '', parameters: {}, execute: () => of(1, 2) });
    expect(await lastValueFrom(t.execute({}, context()) as Observable<number>)).toBe(2);
  });

  it.each([
    ['a bad name', { name: 'get time' }, 'name'],
    ['a missing description', { description: undefined }, 't.description'],
    ['a missing execute', { execute: 'no' }, 't.execute'],
    ['parameters that are not a schema', { parameters: [] }, 't.parameters'],
    ['a schema ajv cannot compile', { parameters: { type: 'nope' } }, 't.parameters'],
    ['a bad timeout', { timeout: -1 }, 't.timeout'],
  ])('rejects %s with an InvalidOptionsError', (_label, override, option) => {
    const base = { name: 't', description: 'd', parameters: {}, execute: () => 'x' };
    expect(() => tool({ ...base, ...override } as never)).toThrow(
      expect.objectContaining({ option }),
    );
    expect(() => tool({ ...base, ...override } as never)).toThrow(InvalidOptionsError);
  });

  it('rejects a zod schema without a JSON Schema export (zod/mini)', async () => {
    const mini = await import('zod/mini');
    expect(() =>
      tool({
        name: 't',
        description: '',
        parameters: mini.object({ a: mini.string() }),
        execute: () => 1,
      }),
    ).toThrow(expect.objectContaining({ option: 't.parameters' }));
  });
});

function context() {
  return { values: {}, signal: new AbortController().signal, toolCallId: 'c1', round: 1 };
}
