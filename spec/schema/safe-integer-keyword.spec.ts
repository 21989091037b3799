import { compileSchema } from '../../lib/schema/compile-schema';
import { withSafeIntegers } from '../../lib/schema/safe-integer-keyword';

const KEY = 'x-rx-advisors-safe-integer';
const BIG = 2 ** 53 + 2;

describe('withSafeIntegers', () => {
  it('marks integer-only subschemas in a copy, leaving the original and data keywords alone', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        either: { type: ['integer', 'null'] },
        wide: { type: ['integer', 'number'] },
        list: { type: 'array', items: { anyOf: [{ type: 'integer' }, { type: 'string' }] } },
        fixed: { const: { type: 'integer' }, enum: [{ type: 'integer' }] },
      },
      $defs: { n: { type: 'integer' } },
    };
    const before = JSON.stringify(schema);
    const marked = withSafeIntegers(schema) as typeof schema & Record<string, never>;
    expect(JSON.stringify(schema)).toBe(before);
    expect(marked.properties.id).toEqual({ type: 'integer', [KEY]: true });
    expect(marked.properties.either).toEqual({ type: ['integer', 'null'], [KEY]: true });
    expect(marked.properties.wide).toBe(schema.properties.wide);
    expect(marked.properties.list.items.anyOf[0]).toEqual({ type: 'integer', [KEY]: true });
    expect(marked.properties.fixed).toBe(schema.properties.fixed);
    expect(marked.$defs.n).toEqual({ type: 'integer', [KEY]: true });
  });

  it('returns the schema itself when it has no integer', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(withSafeIntegers(schema)).toBe(schema);
  });

  it('applies through $ref, in both dialects, and never reaches the schema sent to a model', () => {
    for (const $schema of [undefined, 'http://json-schema.org/draft-07/schema#']) {
      const schema = {
        ...($schema === undefined ? {} : { $schema }),
        type: 'object',
        properties: { n: { $ref: '#/definitions/n' } },
        definitions: { n: { type: 'integer' } },
      };
      const compiled = compileSchema(schema, 'outputSchema');
      expect(compiled.jsonSchema).toBe(schema);
      expect(JSON.stringify(compiled.jsonSchema)).not.toContain(KEY);
      expect(compiled.validate({ n: BIG })).toMatchObject({ valid: false, issueCount: 1 });
      expect(compiled.validate({ n: 3 })).toEqual({ valid: true, value: { n: 3 } });
    }
  });
});
