// Unknown option keys are refused, naming the nearest known option (issue 30, point 4): a
// misspelt option (`maxRound`) would otherwise be ignored and its default used. Checked
// centrally by validateOptions; the last test reads every call of it in lib/ with the
// TypeScript type checker and requires the rules (plus the call's `known` list) to cover
// every option of the options type, so a new option without a rule cannot be refused.
import { join } from 'node:path';
import { lastValueFrom, tap } from 'rxjs';
import ts from 'typescript';
import {
  ChatClient,
  InvalidOptionsError,
  MessageChatMemoryAdvisor,
  MessageWindowChatMemory,
  PromptChatMemoryAdvisor,
  ToolCallingAdvisor,
  ToolNotFoundError,
  tool,
} from 'rx-advisors';
import { MockChatModel } from 'rx-advisors/testing';
import { nearestName } from '../../lib/core/nearest-name';

function thrown(build: () => unknown): InvalidOptionsError {
  try {
    build();
  } catch (error) {
    if (InvalidOptionsError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('unknown option keys', () => {
  it('ToolCallingAdvisor({ maxRound: 3 }) is refused: did you mean maxRounds', () => {
    const error = thrown(() => new ToolCallingAdvisor({ maxRound: 3 } as never));
    expect(error.option).toBe('maxRound');
    expect(error.value).toBe(3);
    expect(error.message).toBe(
      'Invalid option "maxRound": got 3; expected no such option; did you mean "maxRounds"?.',
    );
  });

  it('a key near no known option is refused with the list of known ones', () => {
    const error = thrown(() => new MessageChatMemoryAdvisor({ colour: 'red' } as never));
    expect(error.option).toBe('colour');
    expect(error.message).toContain('expected no such option; the known options are "name"');
    expect(error.message).toContain('"chatMemory"');
  });

  it('covers tools, memories and memory advisors alike', () => {
    expect(
      thrown(() => new MessageWindowChatMemory({ maxMessage: 20 } as never)).message,
    ).toContain('did you mean "maxMessages"?');
    expect(
      thrown(() =>
        tool({
          name: 'getTime',
          description: 'd',
          parameters: { type: 'object', properties: {} } as const,
          execute: () => 'noon',
          retrunDirect: true,
        } as never),
      ).message,
    ).toContain('did you mean "getTime.returnDirect"?');
    expect(
      thrown(() => new PromptChatMemoryAdvisor({ systemTemplat: '{memory}' } as never)).message,
    ).toContain('did you mean "systemTemplate"?');
  });

  it('a subclass may take options of its own; near misses of the base options are still refused', () => {
    class Audited extends ToolCallingAdvisor {
      constructor(options: { maxRounds?: number; auditLog: string[] }) {
        super(options);
      }
    }
    expect(() => new Audited({ maxRounds: 2, auditLog: [] })).not.toThrow();
    expect(thrown(() => new Audited({ maxRound: 2, auditLog: [] } as never)).option).toBe(
      'maxRound',
    );
  });

  it('undefined values and known options pass', () => {
    expect(() => new ToolCallingAdvisor({ maxRounds: 3, order: undefined } as never)).not.toThrow();
    expect(() => new ToolCallingAdvisor({ maxRound: undefined } as never)).not.toThrow();
  });

  it('nearestName: slips of the keyboard, not unrelated names', () => {
    expect(nearestName('maxRound', ['order', 'maxRounds'])).toBe('maxRounds');
    expect(nearestName('MAXROUNDS', ['maxRounds'])).toBe('maxRounds');
    expect(nearestName('ordr', ['order', 'name'])).toBe('order');
    expect(nearestName('colour', ['order', 'name'])).toBeUndefined();
    expect(nearestName('ab', ['xy'])).toBeUndefined();
  });
});

describe('duplicate tools', () => {
  const getTime = tool({
    name: 'getTime',
    description: 'The time',
    parameters: { type: 'object', properties: {} } as const,
    execute: () => 'noon',
  });
  const model = MockChatModel.script([{ text: 'hi' }]);

  it('defaultTools(t, t) is refused', () => {
    const error = thrown(() => ChatClient.builder(model).defaultTools(getTime, getTime));
    expect(error.option).toBe('defaultTools');
    expect(error.message).toContain('the tool "getTime" is listed twice');
  });

  it('defaultTools(t).defaultTools(t) and prompt().tools(t, t) are refused too', () => {
    expect(
      thrown(() => ChatClient.builder(model).defaultTools(getTime).defaultTools(getTime)).option,
    ).toBe('defaultTools');
    const client = ChatClient.create(model);
    expect(thrown(() => client.prompt('Hi').tools(getTime, getTime)).option).toBe('tools');
  });

  it('a default tool listed again on one call is still fine (counted once)', () => {
    const client = ChatClient.builder(model).defaultTools(getTime).build();
    expect(() => client.prompt('Hi').tools(getTime)).not.toThrow();
  });
});

describe('every validateOptions call in lib/', () => {
  it('knows every option of its options type (rules, or the known list)', () => {
    const root = join(__dirname, '..', '..');
    const parsed = ts.getParsedCommandLineOfConfigFile(
      join(root, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: () => undefined,
      },
    )!;
    const libFiles = parsed.fileNames.filter((file) => file.includes('/lib/'));
    const program = ts.createProgram(libFiles, parsed.options);
    const checker = program.getTypeChecker();
    const gaps: string[] = [];
    let calls = 0;
    for (const source of program.getSourceFiles()) {
      if (!source.fileName.includes('/lib/') || source.fileName.endsWith('validate-options.ts')) {
        continue;
      }
      const visit = (node: ts.Node): void => {
        if (
          ts.isCallExpression(node) &&
          ts.isIdentifier(node.expression) &&
          node.expression.text === 'validateOptions'
        ) {
          calls++;
          const [options, rules, , policy] = node.arguments;
          const names = (expression: ts.Expression | undefined): string[] =>
            expression === undefined
              ? []
              : checker
                  .getPropertiesOfType(
                    checker.getNonNullableType(checker.getTypeAtLocation(expression)),
                  )
                  .map((property) => property.name);
          let known: string[] = [];
          let allow = false;
          if (policy !== undefined && ts.isObjectLiteralExpression(policy)) {
            for (const property of policy.properties) {
              if (!ts.isPropertyAssignment(property)) continue;
              const key = property.name.getText(source);
              if (key === 'unknownKeys' && property.initializer.getText(source) === "'allow'") {
                allow = true;
              }
              if (key === 'known' && ts.isArrayLiteralExpression(property.initializer)) {
                known = property.initializer.elements.map((element) =>
                  ts.isStringLiteral(element) ? element.text : '',
                );
              }
            }
          }
          if (!allow) {
            const covered = new Set([...names(rules), ...known]);
            const missing = names(options).filter((name) => !covered.has(name));
            if (missing.length > 0) {
              const { line } = source.getLineAndCharacterOfPosition(node.getStart());
              gaps.push(
                `${source.fileName.slice(root.length + 1)}:${line + 1} ${missing.join(', ')}`,
              );
            }
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(calls).toBeGreaterThan(40);
    expect(gaps).toEqual([]);
  }, 180_000);
});

describe('a model that calls a tool when none is registered', () => {
  it('ends the call with a ToolNotFoundError, not an empty answer', async () => {
    const model = MockChatModel.script([
      { toolCalls: [{ name: 'getTime', arguments: { city: 'Paris' } }] },
    ]);
    const client = ChatClient.create(model);
    const error: unknown = await lastValueFrom(client.prompt('Time?').call().content()).catch(
      (e: unknown) => e,
    );
    expect(ToolNotFoundError.isInstance(error)).toBe(true);
    expect((error as ToolNotFoundError).toolName).toBe('getTime');
    expect((error as Error).message).toBe(
      'There is no tool named "getTime" here. No tools are available. The call registers no tools: offer it with defaultTools() or tools(), or set advisorParams({ toolCallingAdvisorAutoRegister: false }) to handle tool calls yourself.',
    );
    expect(model.calls).toBe(1);
  });

  it('the stream errors the same way', async () => {
    const model = MockChatModel.script([{ toolCalls: [{ name: 'getTime', arguments: {} }] }]);
    const chunks: string[] = [];
    const error: unknown = await lastValueFrom(
      ChatClient.create(model)
        .prompt('Time?')
        .stream()
        .chunks()
        .pipe(tap((chunk) => chunks.push(chunk.type))),
    ).catch((e: unknown) => e);
    expect(ToolNotFoundError.isInstance(error)).toBe(true);
    expect(chunks).not.toContain('finish');
  });

  it('a call that handles tool calls itself (auto-register off) still gets them', async () => {
    const model = MockChatModel.script([{ toolCalls: [{ name: 'getTime', arguments: {} }] }]);
    const response = await lastValueFrom(
      ChatClient.create(model)
        .prompt('Time?')
        .advisorParams({ toolCallingAdvisorAutoRegister: false })
        .call()
        .chatResponse(),
    );
    expect(response.finishReason).toBe('tool-calls');
    expect(response.message.toolCalls?.map((call) => call.name)).toEqual(['getTime']);
  });
});
