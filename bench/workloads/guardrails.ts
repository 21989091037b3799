import { advisor, ChatClient, type Advisor } from 'rx-advisors';
import {
  GuardrailsAdvisor,
  piiRedaction,
  wordGuardrail,
  type InputGuardrail,
} from 'rx-advisors/guardrails';
import { floorRxjsAdapter } from '../adapters/floor-rxjs.js';
import { composedRedaction } from '../adapters/guardrails-composed.js';
import { collectText, firstChunkMicros } from '../adapters/rx-advisors.js';
import { BenchChatModel } from '../harness/bench-chat-model.js';
import { textChunks } from '../harness/chunks.js';
import { textFixture } from '../harness/fixtures.js';
import { checkText, interleaveTimed } from '../harness/measure.js';
import type { Report } from '../harness/report.js';
import { quartiles } from '../harness/stats.js';
import type { BenchAdapter, TextFixture } from '../harness/types.js';
import type { BenchConfig } from './config.js';
import { firstChunkSamples } from './w4-first-chunk.js';

/** What sits between the model and the caller in a GUARD row. */
type Guard =
  'none' | 'output-word' | 'redact-pii' | 'redact-pii-composed' | 'input-sync' | 'input-async';

/** Words a code-name guardrail would stop; none of them is in the fixture's text. */
const WORDS = ['project zebra', 'password', 'secret plan', 'internal only', 'confidential'];

function advisorsOf(guard: Guard): Advisor[] {
  const words = wordGuardrail({ name: 'code-names', words: WORDS });
  const pii = piiRedaction();
  const asyncCheck: InputGuardrail = {
    name: 'async-check',
    checkInput: () => Promise.resolve(undefined),
  };
  switch (guard) {
    case 'none':
      return [];
    case 'output-word':
      return [new GuardrailsAdvisor({ output: [words] })];
    case 'redact-pii':
      return [new GuardrailsAdvisor({ redact: pii })];
    case 'redact-pii-composed':
      return [advisor({ name: 'composed-redaction', after: composedRedaction(pii) })];
    case 'input-sync':
      return [new GuardrailsAdvisor({ input: [words] })];
    case 'input-async':
      return [new GuardrailsAdvisor({ input: [asyncCheck] })];
    default: {
      const never: never = guard;
      return never;
    }
  }
}

/** One guard configuration as a bench adapter: a client built once, as a server would. */
function guarded(guard: Guard, fixture: TextFixture): BenchAdapter {
  const chunks = textChunks(fixture);
  const client = ChatClient.builder(new BenchChatModel({ script: () => chunks }))
    .defaultAdvisors(...advisorsOf(guard))
    .build();
  const unsupported = () => Promise.reject(new Error('not part of the GUARD workload'));
  return {
    framework: 'rx-advisors',
    passThroughLabel: `guard ${guard}`,
    toolLoopLabel: `guard ${guard}`,
    stream: () => collectText(client.prompt('Hi').stream().content()),
    toolLoop: unsupported,
    parked: unsupported,
    firstChunk: () =>
      firstChunkMicros(
        () => client.prompt('Hi').stream().content(),
        fixture.text,
        `GUARD ${guard}`,
      ),
  };
}

/**
 * Guardrails (`npm run bench -- --only=GUARD`): per text chunk (W1: `w1Sizes` chunks of 4
 * characters, no advisor but the guard), an output `wordGuardrail` (5 words), PII redaction
 * (5 built-in detectors, the library's operator and the same scanner composed from
 * `mergeMap` + `concat`), no guardrail, and the bare-RxJS floor, in one interleaved run; and
 * the time to the first text chunk (W4: 10 chunks, sequential calls) with no guardrail, a
 * synchronous input check (`wordGuardrail`), an asynchronous one (a resolved Promise: the
 * machinery's cost, not a check's), and the output hold-back (`wordGuardrail`).
 */
export async function runGuardrails(config: BenchConfig, report: Report): Promise<void> {
  const perChunk: Guard[] = ['none', 'output-word', 'redact-pii', 'redact-pii-composed'];
  for (const n of config.w1Sizes) {
    const fixture = textFixture(n);
    const variants = perChunk.map((guard) => [guard, guarded(guard, fixture)] as const);
    const adapters = [...variants.map(([, adapter]) => adapter), floorRxjsAdapter];
    const samples = await interleaveTimed(
      adapters,
      () => config.w1Plan(n),
      (adapter) => adapter.stream(fixture, 0),
      (adapter, text) => checkText(adapter, `GUARD n=${n}`, text, fixture.text),
      1e6 / n,
    );
    for (const [guard, adapter] of variants)
      add(report, 'W1', { n, guard }, 'ns-per-chunk', samples.get(adapter));
    add(
      report,
      'W1',
      { n, guard: 'floor' },
      'ns-per-chunk',
      samples.get(floorRxjsAdapter),
      'floor-rxjs',
    );
  }
  const fixture = textFixture(10);
  const { calls } = config.w4;
  const firstChunk: Guard[] = ['none', 'input-sync', 'input-async', 'output-word'];
  const variants = firstChunk.map((guard) => [guard, guarded(guard, fixture)] as const);
  const measured = await firstChunkSamples(
    variants.map(([, adapter]) => adapter),
    fixture,
    config,
  );
  for (const [guard, adapter] of variants) {
    add(report, 'W4', { calls, guard }, 'us-to-first-chunk', measured.get(adapter));
  }
  report.note(
    'GUARD rows: W1 ns per 4-character chunk through one GuardrailsAdvisor (guard = none: no advisor; floor: bare from(array)); redact-pii-composed = the same scanner composed from mergeMap + concat (what the hand-written operator replaces); W4 µs to the first text chunk, input-async = a check that answers with a resolved Promise',
  );
}

function add(
  report: Report,
  workload: 'W1' | 'W4',
  params: Record<string, number | string>,
  metric: 'ns-per-chunk' | 'us-to-first-chunk',
  samples: number[] | undefined,
  framework: 'rx-advisors' | 'floor-rxjs' = 'rx-advisors',
): void {
  if (samples === undefined || samples.length === 0) return;
  report.addRow({ workload, params, framework, metric, ...quartiles(samples) });
}
