// The public surface: the root entry point holds what a ChatClient user needs; the advisor
// contract is rx-advisors/advisor-api and retrieval rx-advisors/rag. Names that moved keep
// working from the root for one release, marked @deprecated (lib/deprecated-root-exports.ts).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import * as advisorApiEntry from '../../lib/advisor-api';
import * as rootEntry from '../../lib';
import * as ragEntry from '../../lib/rag';

const root = resolve(__dirname, '../..');
const { entryPoints } = JSON.parse(
  readFileSync(join(root, 'scripts', 'entry-points.json'), 'utf8'),
) as { entryPoints: { name: string; source: string }[] };

interface Exported {
  readonly name: string;
  readonly isValue: boolean;
  /** The text of its @deprecated tag, when the export (or what it re-exports) has one. */
  readonly deprecated: string | undefined;
}

/** Every entry point's exports, read with the compiler as a user's editor sees them. */
function readExports(): Map<string, Exported[]> {
  const program = ts.createProgram(
    entryPoints.map((entry) => join(root, entry.source)),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      noEmit: true,
      skipLibCheck: true,
    },
  );
  const checker = program.getTypeChecker();
  const byEntry = new Map<string, Exported[]>();
  for (const entry of entryPoints) {
    const file = program.getSourceFile(join(root, entry.source));
    const module = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    if (module === undefined) throw new Error(`cannot read the exports of ${entry.source}`);
    byEntry.set(
      entry.name,
      checker.getExportsOfModule(module).map((exported) => {
        const target =
          exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const tag = exported.getJsDocTags(checker).find((t) => t.name === 'deprecated');
        return {
          name: exported.name,
          isValue: (target.flags & ts.SymbolFlags.Value) !== 0,
          deprecated: tag === undefined ? undefined : ts.displayPartsToString(tag.text),
        };
      }),
    );
  }
  return byEntry;
}

const exportsByEntry = readExports();
const exportsOf = (name: string): Exported[] => exportsByEntry.get(name) ?? [];
const current = (name: string): Exported[] =>
  exportsOf(name).filter((exported) => exported.deprecated === undefined);

describe('the public surface', () => {
  it('the root exports at most 80 values besides the deprecated ones', () => {
    const values = current('rx-advisors').filter((exported) => exported.isValue);
    expect(values.length).toBeLessThanOrEqual(80);
  });

  it('keeps on the root what a ChatClient user needs, and the names DESIGN.md §1 gives it', () => {
    const names = current('rx-advisors').map((exported) => exported.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'ChatClient',
        'ChatRequest',
        'aggregate',
        'UsageAccumulator',
        'advisor',
        'Order',
        'AdvisorParams',
        'tool',
        'ToolCallingAdvisor',
        'MessageChatMemoryAdvisor',
        'RxAdvisorsError',
      ]),
    );
  });

  it('gives the advisor contract and retrieval their own entry points', () => {
    expect(current('rx-advisors/advisor-api').map((e) => e.name)).toEqual(
      expect.arrayContaining([
        'Advisor',
        'AdvisorChain',
        'advisor',
        'Order',
        'recursiveAdvisor',
        'ContextKeys',
        'isToolLoop',
        'UsageAccumulator',
        'ToolLoopTranscript',
      ]),
    );
    expect(current('rx-advisors/rag').map((e) => e.name)).toEqual(
      expect.arrayContaining([
        'QuestionAnswerAdvisor',
        'RetrievalAugmentationAdvisor',
        'InMemoryVectorStore',
        'VectorStore',
        'VectorStoreChatMemoryAdvisor',
        'VectorStoreError',
      ]),
    );
  });

  it('marks every name that left the root @deprecated, naming where it went', () => {
    const deprecated = exportsOf('rx-advisors').filter((e) => e.deprecated !== undefined);
    expect(deprecated.length).toBeGreaterThan(0);
    for (const { name, deprecated: note } of deprecated) {
      const moved = [...exportsByEntry]
        .filter(([entry]) => entry !== 'rx-advisors')
        .find(([, list]) => list.some((e) => e.name === name && e.deprecated === undefined));
      if (moved === undefined) {
        expect({ name, note }).toEqual({ name, note: expect.stringMatching(/^Internal/) });
      } else {
        expect({ name, note }).toEqual({ name, note: expect.stringContaining(`'${moved[0]}'`) });
      }
    }
  });

  it('shares with the subpaths only the simple-advisor names; every other shared name is deprecated', () => {
    const onRoot = new Set(current('rx-advisors').map((e) => e.name));
    const shared = ['rx-advisors/advisor-api', 'rx-advisors/rag'].flatMap((entry) =>
      current(entry)
        .filter((e) => onRoot.has(e.name))
        .map((e) => e.name),
    );
    expect(shared.sort()).toEqual(
      ['Advisor', 'AdvisorOptions', 'AdvisorParams', 'Order', 'UsageAccumulator', 'advisor'].sort(),
    );
  });

  it('a deprecated root name is the very value its new entry point exports', () => {
    const rootValues = rootEntry as Record<string, unknown>;
    const differing = ([advisorApiEntry, ragEntry] as Record<string, unknown>[]).flatMap((entry) =>
      Object.entries(entry)
        .filter(([name, value]) => name in rootValues && rootValues[name] !== value)
        .map(([name]) => name),
    );
    expect(differing).toEqual([]);
    expect(rootEntry.QuestionAnswerAdvisor).toBe(ragEntry.QuestionAnswerAdvisor);
    expect(rootEntry.recursiveAdvisor).toBe(advisorApiEntry.recursiveAdvisor);
  });

  it('no entry point exports an internal outside the deprecated list', () => {
    const internals = /^(ResponseAssembler|isWebUrl|DEFAULT_\w+_TEMPLATE)$/;
    const exposed = [...exportsByEntry].flatMap(([entry, list]) =>
      list
        .filter((e) => internals.test(e.name) && e.deprecated === undefined)
        .map((e) => `${entry} → ${e.name}`),
    );
    expect(exposed).toEqual([]);
  });
});
