import { describe, expect, it } from '@jest/globals';
import { compileOutputSchema } from '../../lib/output/compile-output-schema.js';
import { z } from 'zod';

/** A JSON Schema as a request handler writes it: a new literal on every call. */
function inlineSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['name'],
    additionalProperties: false,
  };
}

describe('compileOutputSchema', () => {
  it('compiles a JSON Schema written inline per call once: equal text, one compiled schema', () => {
    const first = compileOutputSchema(inlineSchema());
    const second = compileOutputSchema(inlineSchema());
    expect(second).toBe(first);
    expect(second.validate({ name: 'Ada', tags: ['x'] })).toEqual({
      valid: true,
      value: { name: 'Ada', tags: ['x'] },
    });
    expect(second.validate({ tags: [] }).valid).toBe(false);
  });

  it('keeps schemas of different text apart', () => {
    const strict = compileOutputSchema({ ...inlineSchema(), required: ['name', 'tags'] });
    const loose = compileOutputSchema(inlineSchema());
    expect(strict).not.toBe(loose);
    expect(loose.validate({ name: 'Ada' }).valid).toBe(true);
    expect(strict.validate({ name: 'Ada' }).valid).toBe(false);
  });

  it('still compiles zod schemas per object (their validation is not in their JSON text)', () => {
    const make = () => z.object({ n: z.number().refine((v) => v > 0) });
    expect(compileOutputSchema(make())).not.toBe(compileOutputSchema(make()));
    expect(compileOutputSchema(make()).validate({ n: -1 }).valid).toBe(false);
  });

  it('forgets the oldest texts past 64, and reports an invalid schema as before', () => {
    const first = compileOutputSchema({ ...inlineSchema(), title: 'oldest' });
    for (let i = 0; i < 64; i++) compileOutputSchema({ ...inlineSchema(), title: `t${i}` });
    expect(compileOutputSchema({ ...inlineSchema(), title: 'oldest' })).not.toBe(first);
    expect(() => compileOutputSchema({ type: 'no-such-type' }, 'schema')).toThrow(/schema/);
  });
});
