// npm run bench: every workload through rx-advisors, the peers and the floors, interleaved.
// Flags: --quick (small sizes, no results.json), --only=W1,W3 (a subset; no results.json unless
// --save: its rows then replace the rows of results.json with the same workload, params,
// framework and metric, and the other rows stay), --json=<file> (this run's rows, for
// bench/compare.ts); BENCH_FRAMEWORKS=rx-advisors,… times only those frameworks.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join, sep } from 'node:path';
import { aiSdkAdapter } from './adapters/ai-sdk.js';
import { floorAsyncGenAdapter } from './adapters/floor-asyncgen.js';
import { floorRxjsAdapter } from './adapters/floor-rxjs.js';
import { langchainAdapter } from './adapters/langchain.js';
import { rxAdvisorsAdapter } from './adapters/rx-advisors.js';
import { wantsFramework } from './harness/frameworks.js';
import { cpuClock, hasGc } from './harness/measure.js';
import { markdownTable, Report } from './harness/report.js';
import type { BenchAdapter, BenchResult } from './harness/types.js';
import { fullConfig, quickConfig } from './workloads/config.js';
import { runW1 } from './workloads/w1-stream.js';
import { runW2 } from './workloads/w2-tool-loop.js';
import { runW3 } from './workloads/w3-memory.js';
import { runW4 } from './workloads/w4-first-chunk.js';
import { runW5 } from './workloads/w5-full-chain.js';
import { runTelemetry } from './workloads/telemetry.js';
import { runMcp } from './workloads/mcp.js';
import { runLoopControl } from './workloads/loop-control.js';
import { runGuardrails } from './workloads/guardrails.js';
import { runW10 } from './workloads/w10-memory-window.js';
import { runW11 } from './workloads/w11-vector-search.js';
import { runW6 } from './workloads/w6-streamed-object.js';
import { runW9 } from './workloads/w9-cold-start.js';
import { runW7 } from './workloads/w7-sse-server.js';
import { runW8 } from './workloads/w8-long-histories.js';
import { runAgents } from './workloads/agents.js';
import { runRunJournal } from './workloads/run-journal.js';

const ADAPTERS: readonly BenchAdapter[] = [
  rxAdvisorsAdapter,
  aiSdkAdapter,
  langchainAdapter,
  floorRxjsAdapter,
  floorAsyncGenAdapter,
].filter((adapter) => wantsFramework(adapter.framework)); // BENCH_FRAMEWORKS (bench/compare.ts)

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const only = args
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const wants = (workload: string): boolean => only === undefined || only.includes(workload);
  const config = quick ? quickConfig : fullConfig;
  const report = new Report();
  const started = performance.now();
  if (!hasGc)
    console.error('warning: run with node --expose-gc (npm run bench does) for W3 and clean runs');
  console.error(`${machine()}\n${versions()}`);
  // W1, W2 and W4 also warm the peers up before the memory workload.
  if (wants('W1')) await step('W1', () => runW1(ADAPTERS, config, report));
  if (wants('W2')) await step('W2', () => runW2(ADAPTERS, config, report));
  if (wants('W4')) await step('W4', () => runW4(ADAPTERS, config, report));
  if (wants('W3')) await step('W3', () => runW3(ADAPTERS, config, report));
  if (wants('W5')) await step('W5', () => runW5(config, report));
  if (wants('W10')) await step('W10', () => runW10(config, report));
  // W11 similarity search against store size (in memory, SQLite); alone: --only=W11.
  if (wants('W11')) await step('W11', () => runW11(config, report));
  // W6 streamed structured output (1, 10, 100 KB JSON as partial objects); alone: --only=W6.
  if (wants('W6')) await step('W6', () => runW6(config, report));
  // W9 cold start (fresh node processes) and installed footprint; alone: --only=W9.
  if (wants('W9')) await step('W9', () => runW9(config, report));
  // W7 the SSE server end to end (server and clients in two processes); alone: --only=W7.
  if (wants('W7')) await step('W7', () => runW7(config, report));
  // W8 long histories, every memory repository (Redis, PostgreSQL servers started); alone: --only=W8.
  if (wants('W8')) await step('W8', () => runW8(config, report));
  // W1 and W2 with telemetry off / no-op / on (rx-advisors/otel); alone: --only=OTEL.
  if (wants('OTEL')) await step('OTEL', () => runTelemetry(config, report));
  // W2 with the tool served over MCP (stdio, Streamable HTTP); alone: --only=MCP.
  if (wants('MCP')) await step('MCP', () => runMcp(config, report));
  // Per-chunk cost of an agent at top level vs nested under agentTool; alone: --only=AGENTS.
  if (wants('AGENTS')) await step('AGENTS', () => runAgents(config, report));
  if (wants('RUN')) await step('RUN', () => runRunJournal(config, report)); // durable runs' journal cost
  // W1 with a token budget and W2 with stopWhen / prepareRound (loop control); alone: --only=LOOP.
  if (wants('LOOP')) await step('LOOP', () => runLoopControl(config, report));
  // Guardrails: per-chunk cost and first-chunk latency (rx-advisors/guardrails); alone: --only=GUARD.
  if (wants('GUARD')) await step('GUARD', () => runGuardrails(config, report));
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(
    `## rx-advisors benchmarks\n\n${machine()}  \n${versions()}  \nRun time: ${seconds} s${quick ? ' (--quick: sizes reduced, numbers not meaningful)' : ''}\n`,
  );
  console.log(
    `Cells: median [p25–p75]; lower is better. W1, W2, W5 timed by ${cpuClock}; W4 by the wall clock (performance.now) per call; W3 by heapUsed/RSS after a forced GC.\n`,
  );
  console.log(markdownTable(report.results));
  if (report.notes.length > 0)
    console.log(`\n${report.notes.map((note) => `- ${note}`).join('\n')}`);
  // --json=<file>: this run's rows, whatever the other flags (bench/compare.ts reads them).
  const json = args.find((arg) => arg.startsWith('--json='))?.slice('--json='.length);
  if (json !== undefined) writeFileSync(json, `${JSON.stringify(report.results, null, 2)}\n`);
  const file = join(__dirname, 'results.json');
  if (!quick && only === undefined) {
    writeFileSync(file, `${JSON.stringify(report.results, null, 2)}\n`);
    console.error(`wrote ${file}`);
  } else if (!quick && args.includes('--save')) {
    writeFileSync(file, `${JSON.stringify(mergeRows(file, report.results), null, 2)}\n`);
    console.error(`merged ${report.results.length} rows into ${file}`);
  }
}

/** The rows of `file` with `rows` in place of those with the same key, `rows` appended otherwise. */
function mergeRows(file: string, rows: readonly BenchResult[]): BenchResult[] {
  const key = (row: BenchResult): string =>
    JSON.stringify([row.workload, row.params, row.framework, row.metric]);
  const fresh = new Map(rows.map((row) => [key(row), row]));
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as BenchResult[]) : [];
  const merged = kept.map((row) => {
    const replacement = fresh.get(key(row));
    if (replacement === undefined) return row;
    fresh.delete(key(row));
    return replacement;
  });
  return [...merged, ...fresh.values()];
}

async function step(name: string, run: () => Promise<void>): Promise<void> {
  const started = performance.now();
  console.error(`${name}…`);
  await run();
  console.error(`${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

function machine(): string {
  const cpu = cpus();
  return `Machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${process.platform} ${process.arch}`;
}

/** Where 'rx-advisors' resolves: the built package under `npm run bench`, else the sources. */
function library(): string {
  const file = require.resolve('rx-advisors');
  return file.includes(`${sep}dist${sep}`)
    ? 'dist/cjs (built, as published)'
    : 'lib/ (TypeScript sources through tsx)';
}

function versions(): string {
  const version = (name: string): string => {
    try {
      // The bench's own dependencies (bench/package.json) first, then the root's.
      const own = join(__dirname, 'node_modules', name, 'package.json');
      const file = existsSync(own)
        ? own
        : join(__dirname, '..', 'node_modules', name, 'package.json');
      return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    } catch {
      return '?';
    }
  };
  return `Node ${process.version}, rxjs ${version('rxjs')}, ai ${version('ai')}, @langchain/core ${version('@langchain/core')}; rx-advisors from ${library()}`;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
