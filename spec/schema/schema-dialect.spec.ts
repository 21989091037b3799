import { firstValueFrom, of } from 'rxjs';
import { EntityParseError } from '../../lib/errors/entity-parse-error';
import { ToolArgumentsError } from '../../lib/errors/tool-arguments-error';
import { parseEntity } from '../../lib/output/parse-entity';
import { tool } from '../../lib/tools/tool-fn';

function parseError(run: () => unknown): ToolArgumentsError {
  try {
    run();
  } catch (error) {
    if (ToolArgumentsError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ToolArgumentsError');
}

const entity = (schema: object, text: string) =>
  firstValueFrom(of({ text }).pipe(parseEntity(schema as never)));

describe('the JSON Schema dialect of tool arguments and structured output', () => {
  const point2020 = {
    type: 'object',
    properties: {
      point: {
        type: 'array',
        prefixItems: [{ type: 'number' }, { type: 'number' }],
        items: false,
      },
    },
    required: ['point'],
  } as const;

  const point07 = {
    type: 'object',
    properties: {
      point: {
        type: 'array',
        items: [{ type: 'number' }, { type: 'number' }],
        additionalItems: false,
      },
    },
    required: ['point'],
  } as const;

  it('validates a 2020-12 tuple (prefixItems) in tool arguments', () => {
    const move = tool({
      name: 'move',
      description: 'Move',
      parameters: point2020,
      execute: () => 'ok',
    });
    expect(move.parseArguments('{"point":[1,2]}')).toEqual({ point: [1, 2] });
    const error = parseError(() => move.parseArguments('{"point":[1,"two"]}'));
    expect(error.issues.join(' ')).toContain('/point/1');
    expect(() => move.parseArguments('{"point":[1,2,3]}')).toThrow(ToolArgumentsError);
  });

  it('validates a draft-07 tuple (items array) in tool arguments, without $schema', () => {
    const move = tool({
      name: 'move',
      description: 'Move',
      parameters: point07,
      execute: () => 'ok',
    });
    expect(move.parseArguments('{"point":[1,2]}')).toEqual({ point: [1, 2] });
    expect(() => move.parseArguments('{"point":[1,"two"]}')).toThrow(ToolArgumentsError);
    expect(() => move.parseArguments('{"point":[1,2,3]}')).toThrow(ToolArgumentsError);
  });

  it('follows $schema when the schema names its dialect', () => {
    const draft07 = { $schema: 'http://json-schema.org/draft-07/schema#', ...point07 };
    const move = tool({
      name: 'move',
      description: 'Move',
      parameters: draft07,
      execute: () => 'ok',
    });
    expect(() => move.parseArguments('{"point":[1,2,3]}')).toThrow(ToolArgumentsError);
    expect(move.inputSchema).toBe(draft07);
  });

  it('validates the same tuples alike in structured output', async () => {
    await expect(entity(point2020, '{"point":[1,2]}')).resolves.toEqual({ point: [1, 2] });
    await expect(entity(point07, '{"point":[1,2]}')).resolves.toEqual({ point: [1, 2] });
    for (const schema of [point2020, point07]) {
      const error = await entity(schema, '{"point":[1,2,3]}').catch((e: unknown) => e);
      expect(EntityParseError.isInstance(error)).toBe(true);
    }
  });
});
