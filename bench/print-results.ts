// Prints bench/results.json as the markdown table `npm run bench` prints (for
// docs/performance.md): `npx tsx bench/print-results.ts`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownTable } from './harness/report.js';
import type { BenchResult } from './harness/types.js';

const rows = JSON.parse(readFileSync(join(__dirname, 'results.json'), 'utf8')) as BenchResult[];
console.log(markdownTable(rows));
