import { from, takeWhile, type Observable } from 'rxjs';
import {
  BudgetAdvisor,
  ChatClient,
  stepCountIs,
  ToolCallingAdvisor,
  type Advisor,
  type ChatChunk,
  type ToolCallingAdvisorOptions,
} from 'rx-advisors';
import { collectText, noopTool } from '../adapters/rx-advisors.js';
import { floorRxjsAdapter } from '../adapters/floor-rxjs.js';
import { BenchChatModel } from '../harness/bench-chat-model.js';
import { roundOf, textChunks, TOOL_NAME, toolRoundChunks } from '../harness/chunks.js';
import { textFixture } from '../harness/fixtures.js';
import { checkText, interleaveTimed } from '../harness/measure.js';
import type { Report } from '../harness/report.js';
import type { BenchAdapter, Framework, TextFixture } from '../harness/types.js';
import type { BenchConfig } from './config.js';

/** A limit no run of the bench reaches: the budget counts every chunk and never cuts. */
const UNREACHED = 1e12;

const fail = (): Promise<never> => Promise.reject(new Error('not part of the LOOP workload'));

/** One variant of a LOOP row: a label and how it streams (W1) or loops (W2). */
function adapter(
  framework: Framework,
  label: string,
  stream: (fixture: TextFixture) => Promise<string>,
  toolLoop: (rounds: number, fixture: TextFixture) => Promise<string> = fail,
): BenchAdapter {
  return {
    framework,
    passThroughLabel: label,
    toolLoopLabel: label,
    stream,
    toolLoop,
    parked: fail,
    firstChunk: fail,
  };
}

/** rx-advisors streaming the fixture, with or without a `maxOutputTokens` budget. */
function budgetVariant(budget: boolean, fixture: TextFixture): BenchAdapter {
  const chunks = textChunks(fixture);
  const advisors: Advisor[] = budget ? [new BudgetAdvisor({ maxOutputTokens: UNREACHED })] : [];
  const client = ChatClient.builder(new BenchChatModel({ script: () => chunks }))
    .defaultAdvisors(...advisors)
    .build();
  return adapter('rx-advisors', budget ? 'BudgetAdvisor({ maxOutputTokens })' : 'no budget', () =>
    collectText(client.prompt('Hi').stream().content()),
  );
}

/**
 * The bare-RxJS floor of a token budget: the chunks through one `takeWhile` that estimates
 * each delta (`text.length / 4`, the advisor's default) and stops past the limit, as a user
 * would write it by hand without the library.
 */
function budgetFloor(fixture: TextFixture): BenchAdapter {
  const chunks = textChunks(fixture);
  return adapter('floor-rxjs', 'from(array).pipe(takeWhile(count, true))', () => {
    let output = 0;
    const counted$: Observable<ChatChunk> = from(chunks).pipe(
      takeWhile((chunk) => {
        if (chunk.type === 'text-delta') output += chunk.text.length / 4;
        return output <= UNREACHED;
      }, true),
    );
    return new Promise((resolve, reject) => {
      let text = '';
      counted$.subscribe({
        next: (chunk) => {
          if (chunk.type === 'text-delta') text += chunk.text;
        },
        error: reject,
        complete: () => resolve(text),
      });
    });
  });
}

/** rx-advisors' tool loop with one of the loop-control options (or none). */
function loopVariant(label: string, options: ToolCallingAdvisorOptions, rounds: number) {
  const final = textChunks(textFixture(20));
  const model = new BenchChatModel({
    script: (_call, request) => {
      const round = roundOf(request);
      return round <= rounds ? toolRoundChunks(round) : final;
    },
  });
  const client = ChatClient.builder(model)
    .defaultAdvisors(new ToolCallingAdvisor({ maxRounds: rounds + 1, ...options }))
    .defaultTools(noopTool)
    .build();
  return adapter('rx-advisors', label, fail, () =>
    collectText(client.prompt('Hi').stream().content()),
  );
}

/**
 * Loop control (`npm run bench -- --only=LOOP`). W1 rows (every `w1Sizes` n, no other
 * advisor; ns per chunk): no budget, an active `BudgetAdvisor({ maxOutputTokens })` that
 * counts every delta and never cuts (budget − none is its per-chunk cost), and two
 * bare-RxJS floors: `from(array)` alone and with a hand-written counting `takeWhile`. W2
 * rows (20 tool rounds; µs per round): the loop with no loop control, with `stopWhen` (a
 * condition evaluated after every round that never holds) and with `prepareRound` (a tool
 * subset every round). Rows carry `budget` or `loopControl`.
 */
export async function runLoopControl(config: BenchConfig, report: Report): Promise<void> {
  for (const n of config.w1Sizes) {
    const fixture = textFixture(n);
    const none = budgetVariant(false, fixture);
    const budget = budgetVariant(true, fixture);
    const floor = adapter('floor-rxjs', 'from(array)', (f) => floorRxjsAdapter.stream(f, 0));
    const floorCounting = budgetFloor(fixture);
    const samples = await interleaveTimed(
      [none, budget, floor, floorCounting],
      () => config.w1Plan(n),
      (variant) => variant.stream(fixture, 0),
      (variant, text) => checkText(variant, `LOOP W1 n=${n}`, text, fixture.text),
      1e6 / n,
    );
    add(report, 'W1', { n, advisors: 0, budget: 'none' }, 'ns-per-chunk', [none, floor], samples);
    add(
      report,
      'W1',
      { n, advisors: 0, budget: 'maxOutputTokens' },
      'ns-per-chunk',
      [budget, floorCounting],
      samples,
    );
  }
  const rounds = config.w2Rounds[0] ?? 20;
  const loops = [
    ['none', loopVariant('ToolCallingAdvisor', {}, rounds)],
    [
      'stopWhen',
      loopVariant(
        'stopWhen: stepCountIs(rounds + 10)',
        { stopWhen: stepCountIs(rounds + 10) },
        rounds,
      ),
    ],
    [
      'prepareRound',
      loopVariant(
        'prepareRound: () => ({ tools: [noop] })',
        {
          prepareRound: () => ({ tools: [TOOL_NAME] }),
        },
        rounds,
      ),
    ],
  ] as const;
  const loopFixture = textFixture(20);
  const w2 = await interleaveTimed(
    loops.map(([, variant]) => variant),
    () => config.w2Plan,
    (variant) => variant.toolLoop(rounds, loopFixture),
    (variant, text) => checkText(variant, `LOOP W2 rounds=${rounds}`, text, loopFixture.text),
    1e3 / rounds,
  );
  for (const [loopControl, variant] of loops) {
    add(report, 'W2', { rounds, loopControl }, 'us-per-round', [variant], w2);
  }
  report.note(
    'LOOP: W1 budget=maxOutputTokens is BudgetAdvisor({ maxOutputTokens }) never reached (every delta counted), its floor-rxjs a hand-written takeWhile that counts; W2 loopControl=stopWhen evaluates stepCountIs(rounds + 10) after every round, prepareRound returns a tool subset every round',
  );
}

function add(
  report: Report,
  workload: 'W1' | 'W2',
  params: Record<string, number | string>,
  metric: 'ns-per-chunk' | 'us-per-round',
  variants: readonly BenchAdapter[],
  samples: Map<BenchAdapter, number[]>,
): void {
  report.add(
    workload,
    params,
    metric,
    new Map(variants.map((variant) => [variant, samples.get(variant) ?? []])),
  );
}
