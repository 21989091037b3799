import OpenAI from 'openai';
import {
  agentChunkOf,
  agentTool,
  ChatClient,
  ToolCallingAdvisor,
  type ChatChunk,
  type ChatModel,
} from 'rx-advisors';
import { OpenAiChatModel } from 'rx-advisors/openai';
import { noopTool } from '../adapters/rx-advisors.js';
import { BenchChatModel } from '../harness/bench-chat-model.js';
import { textChunks } from '../harness/chunks.js';
import { textFixture } from '../harness/fixtures.js';
import { checkText, interleaveTimed } from '../harness/measure.js';
import type { Report } from '../harness/report.js';
import { quartiles } from '../harness/stats.js';
import type { BenchAdapter, TextFixture } from '../harness/types.js';
import type { BenchConfig } from './config.js';

/** Where the agent's chunks come from: precomputed chunks, or the OpenAI SDK parsing SSE. */
type ModelKind = 'bench' | 'openai-sse';

/** The agent at top level, or its chunks as they reach the stream of a planner calling it. */
type Level = 'top-level' | 'nested';

/**
 * The agent: a client with the tool loop sending tool events (a tool offered, none called),
 * streaming the fixture's deltas. The same client serves at top level and as the nested agent.
 */
function agentClient(model: ChatModel): ChatClient {
  return ChatClient.builder(model)
    .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
    .defaultTools(noopTool)
    .build();
}

/** The planner: one round calling the agent (`agentTool`), then a one-word answer. */
function plannerClient(agent: ChatClient): ChatClient {
  const call: ChatChunk[] = [
    { type: 'tool-call', id: 'call_1', name: 'research', arguments: '{"task":"go"}' },
    { type: 'finish', reason: 'tool-calls' },
  ];
  const answer: ChatChunk[] = [
    { type: 'text-delta', text: 'done' },
    { type: 'finish', reason: 'stop' },
  ];
  const model = new BenchChatModel({
    script: (_call, request) => (request.messages.some((m) => m.role === 'tool') ? answer : call),
  });
  return ChatClient.builder(model)
    .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }))
    .defaultTools(agentTool({ client: agent, name: 'research', description: 'The agent' }))
    .build();
}

/**
 * The OpenAI SDK over an in-memory Chat Completions stream of the fixture (no socket): the
 * per-chunk cost a real provider adds (SSE framing, `JSON.parse`, the adapter's mapping).
 */
function openAiSseModel(fixture: TextFixture): ChatModel {
  const frame = (body: object): string => `data: ${JSON.stringify(body)}\n\n`;
  const head = { id: 'bench-1', object: 'chat.completion.chunk', created: 0, model: 'bench' };
  const choice = (delta: object, finish: string | null) => ({
    ...head,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const sse = new TextEncoder().encode(
    [
      ...fixture.deltas.map((content) => frame(choice({ content }, null))),
      frame(choice({}, 'stop')),
      frame({
        ...head,
        choices: [],
        usage: { prompt_tokens: 12, completion_tokens: 34, total_tokens: 46 },
      }),
      'data: [DONE]\n\n',
    ].join(''),
  );
  const client = new OpenAI({
    apiKey: 'bench',
    baseURL: 'http://bench.invalid/v1',
    maxRetries: 0,
    // The body in 16 KiB pieces, as a socket delivers it (one 10,000-frame buffer is not).
    fetch: () =>
      Promise.resolve(
        new Response(pieces(sse, 16_384), {
          status: 200,
          headers: { 'content-type': 'text/event-stream' },
        }),
      ),
  });
  return new OpenAiChatModel({ client, model: 'bench' });
}

/** `bytes` as a stream of `size`-byte pieces. */
function pieces(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, (offset += size)));
    },
  });
}

/** One case: the agent's text as its subscriber sees it (top level) or as the planner's does. */
function runner(level: Level, agent: ChatClient): () => Promise<string> {
  if (level === 'top-level') {
    return () =>
      new Promise((resolve, reject) => {
        let text = '';
        agent
          .prompt('Hi')
          .stream()
          .chunks()
          .subscribe({
            next: (chunk) => {
              if (chunk.type === 'text-delta') text += chunk.text;
            },
            error: reject,
            complete: () => resolve(text),
          });
      });
  }
  const planner = plannerClient(agent);
  return () =>
    new Promise((resolve, reject) => {
      let text = '';
      planner
        .prompt('Hi')
        .stream()
        .chunks()
        .subscribe({
          next: (chunk) => {
            const nested = agentChunkOf(chunk);
            if (nested?.chunk.type === 'text-delta') text += nested.chunk.text;
          },
          error: reject,
          complete: () => resolve(text),
        });
    });
}

/**
 * The agent's models to time: both, or those `BENCH_AGENTS_MODELS` names (`bench`,
 * `openai-sse`, comma-separated; per-process runs of the library alone take `bench`).
 */
function agentModels(): ModelKind[] {
  const all: ModelKind[] = ['bench', 'openai-sse'];
  const wanted = process.env.BENCH_AGENTS_MODELS?.split(',').map((name) => name.trim());
  if (wanted === undefined || wanted.length === 0) return all;
  const unknown = wanted.filter((name) => !all.includes(name as ModelKind));
  if (unknown.length > 0) throw new Error(`BENCH_AGENTS_MODELS: unknown ${unknown.join(', ')}`);
  return all.filter((kind) => wanted.includes(kind));
}

/** A case as the harness's adapter (only its identity is used: `interleaveTimed` keys by it). */
function caseAdapter(label: string): BenchAdapter {
  const fail = () => Promise.reject(new Error('not part of the AGENTS workload'));
  return {
    framework: 'rx-advisors',
    passThroughLabel: label,
    toolLoopLabel: label,
    stream: fail,
    toolLoop: fail,
    parked: fail,
    firstChunk: fail,
  };
}

/**
 * Agents composed (`npm run bench -- --only=AGENTS`): the cost of one chunk of an agent (a
 * client with the tool loop and `emitToolEvents`) at top level, and of the same agent's chunk
 * reaching the stream of a planner that calls it with `agentTool` (as a preliminary
 * `tool-result` carrying the chunk), timed in the same run, interleaved. Twice: over
 * precomputed chunks (the library alone) and over the OpenAI SDK parsing an in-memory SSE
 * stream (what a chunk costs with a provider). Rows: W1 `{ n, agents: top-level | nested,
 * model: bench | openai-sse }`, ns per chunk of the agent.
 */
export async function runAgents(config: BenchConfig, report: Report): Promise<void> {
  const n = config.w1Sizes[0] ?? 10_000;
  const fixture = textFixture(n);
  const models: Record<ModelKind, () => ChatModel> = {
    bench: () => new BenchChatModel({ script: () => textChunks(fixture) }),
    'openai-sse': () => openAiSseModel(fixture),
  };
  for (const kind of agentModels()) {
    const cases = (['top-level', 'nested'] as const).map((level) => ({
      level,
      adapter: caseAdapter(`${level} ${kind}`),
      run: runner(level, agentClient(models[kind]())),
    }));
    const runs = new Map(cases.map(({ adapter, run }) => [adapter, run]));
    const samples = await interleaveTimed(
      cases.map(({ adapter }) => adapter),
      () => config.w1Plan(n),
      (adapter) => runs.get(adapter)!(),
      (adapter, text) => checkText(adapter, `AGENTS ${kind} n=${n}`, text, fixture.text),
      1e6 / n,
    );
    const medians: number[] = [];
    for (const { level, adapter } of cases) {
      const values = samples.get(adapter) ?? [];
      if (values.length === 0) continue;
      const row = quartiles(values);
      medians.push(row.median);
      report.addRow({
        workload: 'W1',
        params: { n, agents: level, model: kind },
        framework: 'rx-advisors',
        metric: 'ns-per-chunk',
        ...row,
      });
    }
    if (medians.length === 2) {
      report.note(
        `AGENTS model=${kind}: nested ÷ top-level = ${(medians[1] / medians[0]).toFixed(2)} (target ≤ 2)`,
      );
    }
  }
  report.note(
    "AGENTS (W1 rows with `agents`): ns per chunk of an agent (a client with ToolCallingAdvisor({ emitToolEvents: true }) and one tool, none called) at top level, and of the same agent called by a planner through agentTool, its chunks reaching the planner's stream; model=bench: precomputed chunks (the library alone), model=openai-sse: the OpenAI SDK parsing an in-memory SSE stream",
  );
}
