import { z } from 'zod';
import * as zm from 'zod/mini';
import { InvalidOptionsError } from '../../lib/index';
import { compileSchema } from '../../lib/schema/compile-schema';

const compileOutputSchema = (schema: unknown) => compileSchema(schema, 'outputSchema');

describe('compileSchema', () => {
  it('uses draft 2020-12 by default (prefixItems)', () => {
    const tuple = compileOutputSchema({
      type: 'array',
      prefixItems: [{ type: 'number' }, { type: 'string' }],
    });
    expect(tuple.validate([1, 'a'])).toEqual({ valid: true, value: [1, 'a'] });
    expect(tuple.validate(['a', 1])).toEqual({
      valid: false,
      issues: [
        { path: '/0', message: 'must be number' },
        { path: '/1', message: 'must be string' },
      ],
      issueCount: 2,
    });
  });

  it('checks formats (ajv-formats) and reports enum values', () => {
    const schema = compileOutputSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        at: { type: 'string', format: 'date-time' },
        size: { enum: ['S', 'M'] },
      },
    });
    expect(schema.validate({ email: 'a@b.co', at: '2026-01-01T00:00:00Z', size: 'S' }).valid).toBe(
      true,
    );
    expect(schema.validate({ email: 'nope', at: 'yesterday', size: 'XL' })).toEqual({
      valid: false,
      issues: [
        { path: '/email', message: 'must match format "email"' },
        { path: '/at', message: 'must match format "date-time"' },
        { path: '/size', message: 'must be equal to one of the allowed values: ["S","M"]' },
      ],
      issueCount: 3,
    });
  });

  it('caches the compiled schema per schema object', () => {
    const schema = { type: 'string' };
    expect(compileOutputSchema(schema)).toBe(compileOutputSchema(schema));
  });

  it("converts zod schemas with zod's own converter and reports zod issues as JSON Pointers", () => {
    const compiled = compileOutputSchema(
      z.object({ list: z.array(z.object({ 'a/b': z.string() })) }),
    );
    expect(compiled.jsonSchema).toMatchObject({ type: 'object', required: ['list'] });
    expect(compiled.validate({ list: [{ 'a/b': 1 }] })).toEqual({
      valid: false,
      issues: [
        { path: '/list/0/a~1b', message: 'Invalid input: expected string, received number' },
      ],
      issueCount: 1,
    });
  });

  it('describes what the model must write (zod input) and applies transforms and defaults', () => {
    const compiled = compileOutputSchema(
      z.object({ n: z.string().transform((s) => s.length), d: z.number().default(1) }),
    );
    expect(compiled.jsonSchema).toMatchObject({
      properties: { n: { type: 'string' }, d: { type: 'number', default: 1 } },
      required: ['n'],
    });
    expect(compiled.validate({ n: 'abc' })).toEqual({ valid: true, value: { n: 3, d: 1 } });
  });

  it('rejects schemas it cannot use, naming the fix', () => {
    expect(() =>
      compileOutputSchema({ type: 'object', properties: { a: { type: 'strnig' } } }),
    ).toThrow(InvalidOptionsError);
    expect(() => compileOutputSchema(zm.object({ a: zm.string() }))).toThrow(
      /zod\/mini schemas cannot/,
    );
    expect(() => compileOutputSchema(null)).toThrow(/JSON Schema object or a zod v4 schema/);
  });
});
