// Prints the top self-time functions of a .cpuprofile: `tsx bench/summarize-profile.ts file [top]`.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

function main(): void {
  const [file, topArg = '30'] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: summarize-profile <file.cpuprofile> [top]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
  const self = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    total += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^.*\/(node_modules\/)?/, '');
    const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + hits);
  }
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg));
  for (const [key, hits] of rows)
    console.log(`${((hits / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
}

main();
