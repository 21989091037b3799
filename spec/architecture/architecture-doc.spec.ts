// docs/architecture.md says what .dependency-cruiser.cjs enforces: the table of layers has
// one row per folder of the lint config with exactly the folders it may import, and the
// picture names every folder, its "folder/ → a, b" lines exactly as the config allows.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');

interface Rule {
  name: string;
  from: { path?: string };
  to: { pathNot?: string };
}

/** Folder → the folders it may import, read back from the generated `layer-<folder>` rules. */
function layersOfLintConfig(): Map<string, string[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const config = require(join(root, '.dependency-cruiser.cjs')) as { forbidden: Rule[] };
  const layers = new Map<string, string[]>();
  for (const rule of config.forbidden) {
    if (!rule.name.startsWith('layer-') || rule.name === 'layer-unknown-folder') continue;
    const folder = rule.name.slice('layer-'.length);
    const allowed = /^\^lib\/\((.*)\)\/$/.exec(rule.to.pathNot ?? '')?.[1];
    if (allowed === undefined) throw new Error(`cannot read the rule ${rule.name}`);
    layers.set(
      folder,
      allowed
        .split('|')
        .filter((f) => f !== folder)
        .sort(),
    );
  }
  return layers;
}

const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
const layersSection = doc.slice(
  doc.indexOf('## Layers'),
  doc.indexOf('\n## ', doc.indexOf('## Layers') + 1),
);
const lint = layersOfLintConfig();
const folders = [...lint.keys()].sort();

/** Folder → what its table row allows: the `folder/` names in the second column (not `lib/`). */
function layersOfTable(): Map<string, string[]> {
  const rows = layersSection.split('\n').filter((line) => line.startsWith('| `'));
  const table = new Map<string, string[]>();
  for (const row of rows) {
    const [, first = '', second = ''] = row.split('|');
    const allowed = [...second.matchAll(/`([a-z-]+(?:\/[a-z-]+)*)\/`/g)]
      .map((m) => m[1])
      .filter((name) => name !== 'lib')
      .sort();
    for (const folder of first.matchAll(/`([a-z-]+(?:\/[a-z-]+)*)\/`/g)) {
      table.set(folder[1], allowed);
    }
  }
  return table;
}

/** The picture: the first fenced block of the Layers section. */
const picture = /```\n([\s\S]*?)```/.exec(layersSection)?.[1] ?? '';

/** Folder → the list after `→` of each picture line of the form `folder/ (…) → a, b`. */
function edgesOfPicture(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const line of picture.split('\n')) {
    const edge = /^\s*([a-z-]+(?:\/[a-z-]+)*)\/(?: \(.*\))? → (.+)$/.exec(line);
    if (edge === null) continue;
    edges.set(
      edge[1],
      edge[2]
        .split(',')
        .map((f) => f.trim())
        .sort(),
    );
  }
  return edges;
}

describe('docs/architecture.md against .dependency-cruiser.cjs', () => {
  it('reads the layer rules of the lint config', () => {
    expect(folders).toEqual(expect.arrayContaining(['core', 'errors', 'client', 'otel', 'mcp']));
  });

  it('has one table row per folder, allowing exactly what the lint config allows', () => {
    const table = layersOfTable();
    expect([...table.keys()].sort()).toEqual(folders);
    for (const folder of folders) {
      expect({ folder, allowed: table.get(folder) }).toEqual({ folder, allowed: lint.get(folder) });
    }
  });

  it('names every folder in the picture, none of them as planned', () => {
    for (const folder of folders) {
      expect({ folder, drawn: new RegExp(`(^|[^a-z/-])${folder}/`, 'm').test(picture) }).toEqual({
        folder,
        drawn: true,
      });
    }
    expect(layersSection).not.toMatch(/planned/i);
  });

  it('draws each "folder/ → a, b" line as the lint config allows', () => {
    const edges = edgesOfPicture();
    expect(edges.size).toBeGreaterThan(5);
    for (const [folder, allowed] of edges) {
      expect({ folder, allowed }).toEqual({ folder, allowed: lint.get(folder) });
    }
  });
});
