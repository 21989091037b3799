import { textFixture } from '../harness/fixtures.js';
import { checkText, interleaveTimed } from '../harness/measure.js';
import { NotMeasurableError } from '../harness/not-measurable-error.js';
import type { Report } from '../harness/report.js';
import type { BenchAdapter, W2ToolKind } from '../harness/types.js';
import type { BenchConfig } from './config.js';
import { isPeer } from './w1-stream.js';

/** The W2 tools: the synchronous one (rows `{ rounds }`), then the asynchronous one. */
const KINDS: readonly W2ToolKind[] = ['sync', 'async'];

/** What the asynchronous tool is, in the rows' `tool` parameter (`tool: 'async-zod'`). */
const ASYNC_PARAM = 'async-zod';

/**
 * W2 tool loop: K rounds of one trivial tool call, then a final text, streaming. µs per
 * round (the whole call divided by K). Twice: with a synchronous JSON Schema tool (rows
 * `{ rounds }`) and with an asynchronous zod tool, `execute` returning a Promise (rows
 * `{ rounds, tool: 'async-zod' }`; the floors validate with the same schema and await it).
 */
export async function runW2(
  adapters: readonly BenchAdapter[],
  config: BenchConfig,
  report: Report,
): Promise<void> {
  const fixture = textFixture(20);
  for (const kind of KINDS) {
    const usable = await measurable(adapters, fixture, kind, report);
    for (const rounds of config.w2Rounds) {
      const samples = await interleaveTimed(
        usable,
        (adapter) => (isPeer(adapter) ? config.w2PeerPlan : config.w2Plan),
        (adapter) => adapter.toolLoop(rounds, fixture, kind),
        (adapter, text) => checkText(adapter, `W2 ${kind} rounds=${rounds}`, text, fixture.text),
        1e3 / rounds,
      );
      report.add(
        'W2',
        kind === 'sync' ? { rounds } : { rounds, tool: ASYNC_PARAM },
        'us-per-round',
        samples,
      );
    }
  }
  for (const adapter of adapters) report.note(`W2 ${adapter.framework}: ${adapter.toolLoopLabel}`);
  report.note(
    `W2 tool=${ASYNC_PARAM}: the tool's arguments are a zod z.object({}) and its execute is an async function (a Promise); the floors parse, validate with the same schema and await it`,
  );
}

async function measurable(
  adapters: readonly BenchAdapter[],
  fixture: ReturnType<typeof textFixture>,
  kind: W2ToolKind,
  report: Report,
): Promise<BenchAdapter[]> {
  const usable: BenchAdapter[] = [];
  for (const adapter of adapters) {
    try {
      checkText(
        adapter,
        `W2 ${kind} probe`,
        await adapter.toolLoop(2, fixture, kind),
        fixture.text,
      );
      usable.push(adapter);
    } catch (error) {
      if (!(error instanceof NotMeasurableError)) throw error;
      report.note(`W2 ${kind} ${adapter.framework}: not measurable yet: ${error.message}`);
    }
  }
  return usable;
}
