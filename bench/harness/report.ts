import { quartiles } from './stats.js';
import type { BenchAdapter, BenchResult, Framework, Metric } from './types.js';

/** Collects result rows and notes while the workloads run. */
export class Report {
  readonly results: BenchResult[] = [];
  readonly notes: string[] = [];

  /**
   * Adds one row per adapter with samples.
   * @param workload The workload.
   * @param params Its parameters.
   * @param metric What was measured.
   * @param samples The samples of each adapter.
   */
  add(
    workload: BenchResult['workload'],
    params: BenchResult['params'],
    metric: Metric,
    samples: Map<BenchAdapter, number[]>,
  ): void {
    for (const [adapter, values] of samples) {
      if (values.length === 0) continue;
      this.addRow({ workload, params, framework: adapter.framework, metric, ...quartiles(values) });
    }
  }

  /** Adds one row as is. */
  addRow(row: BenchResult): void {
    this.results.push(row);
    const { median, p25, p75 } = row;
    console.error(
      `  ${row.workload} ${JSON.stringify(row.params)} ${row.framework}: ${median} ${row.metric} [${p25}–${p75}]`,
    );
  }

  /** Records a note printed under the table (a workload not measurable yet, a label). */
  note(text: string): void {
    this.notes.push(text);
    console.error(`  note: ${text}`);
  }
}

const FRAMEWORKS: readonly Framework[] = [
  'rx-advisors',
  'ai-sdk',
  'langchain',
  'floor-rxjs',
  'floor-asyncgen',
  'floor-http',
  'floor-store',
];

/**
 * The Markdown table: one line per workload, params and metric; one column per framework
 * (`median [p25–p75]`), then rx-advisors against the bare-RxJS floor and the AI SDK.
 * @param results The rows.
 * @returns The table.
 */
export function markdownTable(results: readonly BenchResult[]): string {
  const lines = [
    `| workload | params | metric | ${FRAMEWORKS.join(' | ')} | rx ÷ floor | ai-sdk ÷ rx |`,
    `|---|---|---|${FRAMEWORKS.map(() => '---:').join('|')}|---:|---:|`,
  ];
  const groups = new Map<string, BenchResult[]>();
  for (const row of results) {
    const key = `${row.workload}|${formatParams(row.params)}|${row.metric}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  for (const [key, rows] of groups) {
    const [workload, params, metric] = key.split('|');
    const of = (framework: Framework): BenchResult | undefined =>
      rows.find((row) => row.framework === framework);
    const cells = FRAMEWORKS.map((framework) => {
      const row = of(framework);
      return row === undefined
        ? '–'
        : `${format(row.median)} [${format(row.p25)}–${format(row.p75)}]`;
    });
    const rx = of('rx-advisors')?.median;
    // The floor of a row: bare RxJS, or bare node:http for the SSE server (W7).
    const floor = (of('floor-rxjs') ?? of('floor-http'))?.median;
    const ai = of('ai-sdk')?.median;
    const ratio = (a: number | undefined, b: number | undefined): string =>
      a === undefined || b === undefined || b === 0 ? '–' : `${format(a / b)}×`;
    lines.push(
      `| ${workload} | ${params} | ${metric} | ${cells.join(' | ')} | ${ratio(rx, floor)} | ${ratio(ai, rx)} |`,
    );
  }
  return lines.join('\n');
}

function formatParams(params: BenchResult['params']): string {
  return Object.entries(params)
    .map(
      ([key, value]) =>
        `${key}=${typeof value === 'number' ? value.toLocaleString('en-US') : value}`,
    )
    .join(', ');
}

function format(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return Math.round(value).toLocaleString('en-US');
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  return value.toFixed(2);
}
