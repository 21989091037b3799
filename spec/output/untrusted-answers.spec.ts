import { from, lastValueFrom, of, toArray } from 'rxjs';
import { z } from 'zod';
import {
  ChatClient,
  EntityParseError,
  InvalidOptionsError,
  parseEntity,
  StructuredOutputError,
  streamEntity,
  type ChatChunk,
} from '../../lib/index';
import { MockChatModel } from '../../lib/testing/index';

const delta = (text: string): ChatChunk => ({ type: 'text-delta', text });

/** The kind of deep merge users write to accumulate previews, with no key guard. */
function naiveMerge(target: Record<string, unknown>, source: object): Record<string, unknown> {
  for (const key of Object.keys(source)) {
    const value = (source as Record<string, unknown>)[key];
    const current = target[key];
    if (typeof value === 'object' && value !== null) {
      if (current === null || (typeof current !== 'object' && typeof current !== 'function')) {
        target[key] = {};
      }
      naiveMerge(target[key] as Record<string, unknown>, value);
    } else {
      target[key] = value;
    }
  }
  return target;
}

const hasOwn = (value: unknown, key: string) =>
  typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, key);

/** Every object and array inside `value`, itself included. */
function* objectsIn(value: unknown): Generator<object> {
  if (typeof value !== 'object' || value === null) return;
  yield value;
  for (const child of Object.values(value)) yield* objectsIn(child);
}

afterEach(() => {
  delete (Object.prototype as Record<string, unknown>)['polluted'];
});

describe('stream().entity() previews of a hostile answer', () => {
  it.each([
    ['a plain key', '"__proto__"'],
    ['\\u005f', '"\\u005f_proto__"'],
    ['\\u0074', '"__pro\\u0074o__"'],
    [
      'every character escaped',
      '"\\u005f\\u005f\\u0070\\u0072\\u006f\\u0074\\u006f\\u005f\\u005f"',
    ],
  ])(
    'never carry an own __proto__ key (%s), and merging them pollutes nothing',
    async (_label, key) => {
      const text = `{"title": "A", ${key}: {"polluted": true}, "nested": {${key}: {"polluted": true}, "n": 1}}`;
      // Split the answer every 3 characters, so previews are taken at every point of the key.
      const pieces = text.match(/[\s\S]{1,3}/g)!;
      const values = await lastValueFrom(
        from(pieces.map(delta)).pipe(streamEntity({ type: 'object' }), toArray()),
      );
      expect(values.length).toBeGreaterThan(3);
      for (const value of values) {
        for (const object of objectsIn(value)) expect(hasOwn(object, '__proto__')).toBe(false);
      }
      const merged = values.reduce<Record<string, unknown>>(
        (acc, v) => naiveMerge(acc, v as object),
        {},
      );
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect(merged).toEqual({ title: 'A', nested: { n: 1 } });
    },
  );

  it('never carry a constructor.prototype path, and merging them pollutes nothing', async () => {
    const text =
      '{"constructor": {"prototype": {"polluted": true}}, "b": {"\\u0063onstructor": {"prototype": {"polluted": true}}}}';
    const values = await lastValueFrom(
      from(text.match(/[\s\S]{1,4}/g)!.map(delta)).pipe(
        streamEntity({ type: 'object' }),
        toArray(),
      ),
    );
    for (const value of values) naiveMerge({}, value as object);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(values[values.length - 1]).toEqual({ b: {} });
  });

  it('keep a constructor value that is not a path to a prototype', async () => {
    const values = await lastValueFrom(
      of(delta('{"constructor": "Ferrari", "prototype": 1}')).pipe(
        streamEntity({ type: 'object' }),
        toArray(),
      ),
    );
    expect(values).toEqual([
      { constructor: 'Ferrari', prototype: 1 },
      { constructor: 'Ferrari', prototype: 1 },
    ]);
  });
});

describe('deeply nested answers', () => {
  const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  it('fail call().entity() with "nested too deeply", not a stack overflow', async () => {
    const answer = `{"__proto__": 1, "a": ${deep(50_000)}}`;
    const error = await lastValueFrom(
      of({ text: answer }).pipe(parseEntity({ type: 'object' })),
    ).catch((e: unknown) => e);
    expect(EntityParseError.isInstance(error)).toBe(true);
    expect((error as EntityParseError).errors).toEqual([
      {
        path: '',
        message: 'is nested too deeply: more than 64 levels of objects and arrays (maxDepth 64)',
      },
    ]);
  });

  it('honour maxDepth, and show no previews past it', async () => {
    const values = await lastValueFrom(
      from([delta('{"a": [[['), delta('1]]]}')]).pipe(
        streamEntity({ type: 'object' }, { maxDepth: 3 }),
        toArray(),
      ),
    ).catch((e: unknown) => e);
    expect(EntityParseError.isInstance(values)).toBe(true);
    const ok = await lastValueFrom(
      from([delta('{"a": [['), delta('1]]}')]).pipe(
        streamEntity({ type: 'object' }, { maxDepth: 3 }),
        toArray(),
      ),
    );
    expect(ok).toEqual([{ a: [[]] }, { a: [[1]] }, { a: [[1]] }]);
  });

  it('say so in the retry feedback of the validation advisor', async () => {
    const model = MockChatModel.script([{ text: deep(100) }, { text: '[]' }]);
    const value = await lastValueFrom(
      ChatClient.create(model).prompt('p').call().entity({ type: 'array' }, { validate: true }),
    );
    expect(value).toEqual([]);
    const feedback = model.requests[1].messages.at(-1)!;
    expect(feedback.role === 'user' && feedback.content).toContain(
      '- (answer): is nested too deeply',
    );
  });

  it('reject a bad limit with an InvalidOptionsError', () => {
    expect(() => parseEntity({ type: 'object' }, { maxDepth: 0 })).toThrow(InvalidOptionsError);
    expect(() => streamEntity({ type: 'object' }, { maxDepth: 5000 })).toThrow(/maxDepth/);
    expect(() => parseEntity({ type: 'object' }, { maxIssues: 1.5 })).toThrow(/maxIssues/);
  });
});

describe('validation issues of a huge invalid answer', () => {
  const items = 200_000;
  const answer = JSON.stringify(Array.from({ length: items }, () => ({ a: 'x' })));
  const schema = {
    type: 'array',
    items: { type: 'object', properties: { a: { type: 'number' } }, required: ['a', 'b'] },
  };

  it('keeps the first 20 per attempt in StructuredOutputError, and counts them all', async () => {
    const model = MockChatModel.script([{ text: answer }, { text: answer }]);
    const error = await lastValueFrom(
      ChatClient.create(model)
        .prompt('p')
        .call()
        .entity(schema, { validate: { maxAttempts: 2 } }),
    ).catch((e: unknown) => e);
    expect(StructuredOutputError.isInstance(error)).toBe(true);
    const failure = error as StructuredOutputError;
    expect(failure.errors).toHaveLength(40);
    expect(failure.errors.filter((issue) => issue.attempt === 1)).toHaveLength(20);
    expect(failure.errorCount).toBe(4 * items);
    expect(failure.message).toContain(`(and ${2 * items - 3} more)`);
    const feedback = model.requests[1].messages.at(-1)!;
    expect(feedback.role === 'user' && feedback.content).toMatch(/… and \d+ more error\(s\)/);
  });

  it('keeps maxIssues of them in EntityParseError (zod too)', async () => {
    const error = await lastValueFrom(
      of({ text: answer }).pipe(
        parseEntity(z.array(z.object({ a: z.number() })), { maxIssues: 5 }),
      ),
    ).catch((e: unknown) => e);
    expect(EntityParseError.isInstance(error)).toBe(true);
    expect((error as EntityParseError).errors).toHaveLength(5);
    expect((error as EntityParseError).errorCount).toBe(items);
  });
});

describe('numbers an answer cannot hold', () => {
  const entity = (schema: object, text: string) =>
    lastValueFrom(of({ text }).pipe(parseEntity(schema as never))).catch((e: unknown) => e);

  it.each([
    ['integer', { type: 'integer', minimum: 0 }],
    ['number', { type: 'number' }],
    ['number with a maximum', { type: 'number', minimum: 0 }],
  ])('reject 1e400 (Infinity) for type %s', async (_label, n) => {
    const schema = { type: 'object', properties: { n } };
    const error = await entity(schema, '{"n": 1e400}');
    expect(EntityParseError.isInstance(error)).toBe(true);
    expect((error as EntityParseError).errors[0]).toMatchObject({ path: '/n' });
    expect(await entity(schema, '{"n": -1e400}')).toBeInstanceOf(EntityParseError);
  });

  it('reject Infinity with zod number schemas', async () => {
    const error = await entity(z.object({ n: z.number() }), '{"n": 1e400}');
    expect(EntityParseError.isInstance(error)).toBe(true);
  });

  it('reject an integer beyond 2^53 - 1 for type integer, and keep it (rounded) for type number', async () => {
    const integer = await entity(
      { type: 'object', properties: { n: { type: 'integer' } } },
      '{"n": 9007199254740993}',
    );
    expect((integer as EntityParseError).errors).toEqual([
      {
        path: '/n',
        message:
          'must be a safe integer (at most 2^53 - 1 in magnitude; larger integers lose precision, send them as strings)',
      },
    ]);
    expect(
      await entity(
        { type: 'object', properties: { n: { type: 'integer' } } },
        '{"n": 9007199254740991}',
      ),
    ).toEqual({ n: 9007199254740991 });
    expect(
      await entity(
        { type: 'object', properties: { n: { type: 'number' } } },
        '{"n": 9007199254740993}',
      ),
    ).toEqual({ n: 9007199254740992 });
  });
});
