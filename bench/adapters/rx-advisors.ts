import { from, map, type Observable } from 'rxjs';
import { advisor, ChatClient, tool, ToolCallingAdvisor, type Advisor } from 'rx-advisors';
import { BenchChatModel } from '../harness/bench-chat-model.js';
import {
  roundOf,
  splitAtDelta,
  textChunks,
  TOOL_NAME,
  toolRoundChunks,
} from '../harness/chunks.js';
import type { BenchAdapter, Gate, TextFixture, W2ToolKind } from '../harness/types.js';
import { asyncNoop, asyncNoopArgs } from './w2-async-tool.js';

/** `count` advisors that pass every chunk on unchanged (`after: map((chunk) => chunk)`). */
export function passThroughAdvisors(count: number): Advisor[] {
  return Array.from({ length: count }, (_, i) =>
    advisor({ name: `pass-through-${i}`, after: map((chunk) => chunk) }),
  );
}

/** Resolves with the concatenated text deltas of `content$`. */
export function collectText(content$: Observable<string>): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    content$.subscribe({
      next: (delta) => {
        text += delta;
      },
      error: reject,
      complete: () => resolve(text),
    });
  });
}

// Clients are built once per configuration, as a server would: a call is `prompt()...`.
const streamClients = new Map<string, ChatClient>();
const parkedClients = new WeakMap<Gate, ChatClient>();

function streamClient(fixture: TextFixture, advisors: number): ChatClient {
  const key = `${fixture.deltas.length}:${fixture.text.length}:${advisors}`;
  let client = streamClients.get(key);
  if (client === undefined) {
    const chunks = textChunks(fixture);
    client = ChatClient.builder(new BenchChatModel({ script: () => chunks }))
      .defaultAdvisors(...passThroughAdvisors(advisors))
      .build();
    streamClients.set(key, client);
  }
  return client;
}

const loopClients = new Map<string, ChatClient>();

function toolLoopClient(rounds: number, fixture: TextFixture, kind: W2ToolKind): ChatClient {
  const key = `${rounds}:${fixture.text.length}:${kind}`;
  let client = loopClients.get(key);
  if (client === undefined) {
    const final = textChunks(fixture);
    const model = new BenchChatModel({
      script: (_call, request) => {
        const round = roundOf(request);
        return round <= rounds ? toolRoundChunks(round) : final;
      },
    });
    client = ChatClient.builder(model)
      .defaultAdvisors(new ToolCallingAdvisor({ maxRounds: rounds + 1 }))
      .defaultTools(kind === 'sync' ? noopTool : asyncNoopTool)
      .build();
    loopClients.set(key, client);
  }
  return client;
}

/** The one trivial tool of the tool-loop workloads. */
export const noopTool = tool({
  name: TOOL_NAME,
  description: 'Does nothing',
  parameters: { type: 'object', properties: {} },
  execute: () => 'ok',
});

/** The asynchronous tool of W2 (`tool: 'async'`): zod arguments, a Promise result. */
export const asyncNoopTool = tool({
  name: TOOL_NAME,
  description: 'Does nothing',
  parameters: asyncNoopArgs,
  execute: asyncNoop,
});

/** rx-advisors: `ChatClient` over a model that streams precomputed chunks. */
export const rxAdvisorsAdapter: BenchAdapter = {
  framework: 'rx-advisors',
  passThroughLabel: '5 × advisor({ after: map((chunk) => chunk) })',
  toolLoopLabel: 'ToolCallingAdvisor (defer + expand)',

  stream(fixture, advisors) {
    return collectText(streamClient(fixture, advisors).prompt('Hi').stream().content());
  },

  toolLoop(rounds, fixture, kind = 'sync') {
    return collectText(toolLoopClient(rounds, fixture, kind).prompt('Hi').stream().content());
  },

  parked(fixture, parkAt, gate) {
    let client = parkedClients.get(gate);
    if (client === undefined) {
      const { head, tail } = splitAtDelta(textChunks(fixture), parkAt);
      client = ChatClient.create(
        new BenchChatModel({ script: () => [], park: { head, tail, gate } }),
      );
      parkedClients.set(gate, client);
    }
    return collectText(client.prompt('Hi').stream().content());
  },

  firstChunk(fixture) {
    const client = firstChunkClient(fixture);
    return firstChunkMicros(
      () => client.prompt('Hi').stream().content(),
      fixture.text,
      'rx-advisors W4',
    );
  },
};

const firstChunkClients = new WeakMap<TextFixture, ChatClient>();

/**
 * W4's client: no advisors, over a model whose stream is `from(chunks)`, the very
 * Observable the floor subscribes to (the bench model's own `defer` and script call would
 * be work the floor does not do), so the two rows differ by the library alone.
 */
function firstChunkClient(fixture: TextFixture): ChatClient {
  let client = firstChunkClients.get(fixture);
  if (client === undefined) {
    const chunks = textChunks(fixture);
    client = ChatClient.create({ provider: 'bench', stream: () => from(chunks) });
    firstChunkClients.set(fixture, client);
  }
  return client;
}

/**
 * µs from the call (`call()`: building it, as `prompt().stream().content()`, is part of
 * it, as `streamText(...)` is in the AI SDK's row and `from(chunks)` in the floor's) to its
 * first delta; rejects unless the whole text is `expected` (every W4-style row checks the
 * answer it timed).
 */
export function firstChunkMicros(
  call: () => Observable<string>,
  expected: string,
  label: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let first = -1;
    let text = '';
    const start = performance.now();
    call().subscribe({
      next: (delta) => {
        if (first < 0) first = performance.now();
        text += delta;
      },
      error: reject,
      complete: () => {
        if (text !== expected) reject(new Error(`${label} text mismatch: ${text}`));
        else resolve((first - start) * 1000);
      },
    });
  });
}
