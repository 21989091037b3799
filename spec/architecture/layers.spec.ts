// The layer rules of .dependency-cruiser.cjs, run the way `npm run lint` runs them: on a
// throw-away tree of fixture files (each rule must report its violation) and on lib/.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');
const config = join(root, '.dependency-cruiser.cjs');
const depcruise = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** Runs depcruise in `cwd` on its lib/ and returns the violations (JSON report). */
function cruise(cwd: string): Violation[] {
  let output: string;
  try {
    output = execFileSync(process.execPath, [depcruise, 'lib', '--config', config, '-T', 'json'], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    // depcruise exits non-zero when it finds errors; its report is still on stdout.
    output = (error as { stdout: string }).stdout;
  }
  const report = JSON.parse(output) as { summary: { violations: Violation[] } };
  return report.summary.violations;
}

const describeViolations = (violations: readonly Violation[]): string[] =>
  violations.map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`).sort();

describe('layers (.dependency-cruiser.cjs)', () => {
  let tree: string;

  beforeAll(() => {
    tree = mkdtempSync(join(tmpdir(), 'rx-advisors-layers-'));
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' },
      }),
      'lib/index.ts': "export { Order } from './advisor-api/order.js';\n",
      'lib/errors/rx-advisors-error.ts': 'export class RxAdvisorsError extends Error {}\n',
      'lib/core/message.ts': 'export type Message = { role: string };\n',
      'lib/advisor-api/order.ts':
        "import type { Message } from '../core/message.js';\nexport const Order = { DEFAULT: 0 };\nexport type M = Message;\n",
      // Allowed: tools → advisor-api → core, client → tools, advisor → client.
      'lib/tools/tool-fn.ts':
        "import { Order } from '../advisor-api/order.js';\nexport const tool = () => Order.DEFAULT;\n",
      'lib/client/chat-client.ts':
        "import { tool } from '../tools/tool-fn.js';\nexport const client = tool;\n",
      'lib/advisor/evaluation-advisor.ts':
        "import { client } from '../client/chat-client.js';\nexport const judge = client;\n",
      // Upward, as a value import: core → tools.
      'lib/core/chat-request.ts':
        "import { tool } from '../tools/tool-fn.js';\nexport const t = tool;\n",
      // Upward, type-only (dpdm -T missed these): memory → client.
      'lib/memory/conversation-id.ts':
        "import type { client } from '../client/chat-client.js';\nexport type C = typeof client;\n",
      // A cycle made only of type-only imports.
      'lib/output/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
      'lib/output/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
      // Providers use the kit through its index only, and never each other.
      'lib/providers/kit/translate-stream.ts': 'export const translateStream = 1;\n',
      'lib/providers/kit/index.ts': "export { translateStream } from './translate-stream.js';\n",
      'lib/providers/openai/model.ts':
        "import { translateStream } from '../kit/index.js';\nexport const openai = translateStream;\n",
      'lib/providers/anthropic/model.ts':
        "import { openai } from '../openai/model.js';\nexport const anthropic = openai;\n",
      'lib/providers/anthropic/translator.ts':
        "import { translateStream } from '../kit/translate-stream.js';\nexport const t = translateStream;\n",
      // A folder with no place in the layers.
      'lib/misc/helper.ts':
        "import { Order } from '../advisor-api/order.js';\nexport const h = Order;\n",
      // Inside lib/, the root entry point is never imported.
      'lib/sse/encode.ts': "import { Order } from '../index.js';\nexport const e = Order;\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), text);
    }
  });

  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  it('reports every upward import, type-only ones and cycles included, and nothing else', () => {
    expect(describeViolations(cruise(tree))).toEqual([
      'layer-core: lib/core/chat-request.ts → lib/tools/tool-fn.ts',
      'layer-memory: lib/memory/conversation-id.ts → lib/client/chat-client.ts',
      'layer-sse: lib/sse/encode.ts → lib/index.ts',
      'layer-unknown-folder: lib/misc/helper.ts → lib/advisor-api/order.ts',
      'no-circular: lib/output/a.ts → lib/output/b.ts',
      'no-entry-imports-inside-lib: lib/sse/encode.ts → lib/index.ts',
      'providers-independent: lib/providers/anthropic/model.ts → lib/providers/openai/model.ts',
      'providers-independent: lib/providers/anthropic/translator.ts → lib/providers/kit/translate-stream.ts',
    ]);
  }, 60_000);

  it('finds no violation in lib/', () => {
    expect(describeViolations(cruise(root))).toEqual([]);
  }, 60_000);
});
