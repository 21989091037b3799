import type { ChatChunk } from '../../lib/index.js';
import { splitAtDelta, textChunks, toolRoundChunks } from '../harness/chunks.js';
import type { BenchAdapter, Gate } from '../harness/types.js';
import { runAsyncNoop } from './w2-async-tool.js';

// An async source on purpose: a model stream is async; this is its cheapest form.
// eslint-disable-next-line @typescript-eslint/require-await
async function* source(chunks: readonly ChatChunk[]): AsyncGenerator<ChatChunk> {
  for (const chunk of chunks) yield chunk;
}

async function* passThrough(chunks: AsyncIterable<ChatChunk>): AsyncGenerator<ChatChunk> {
  for await (const chunk of chunks) yield chunk;
}

async function* gated(
  head: readonly ChatChunk[],
  tail: readonly ChatChunk[],
  gate: Gate,
): AsyncGenerator<ChatChunk> {
  for (const chunk of head) yield chunk;
  gate.arrive();
  await gate.opened;
  for (const chunk of tail) yield chunk;
}

async function collect(chunks: AsyncIterable<ChatChunk>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) if (chunk.type === 'text-delta') text += chunk.text;
  return text;
}

const noop = (): string => 'ok';

/** The floor: a plain async generator, pass-throughs as `for await … yield` generators. */
export const floorAsyncGenAdapter: BenchAdapter = {
  framework: 'floor-asyncgen',
  passThroughLabel: '5 × async function* (for await … yield)',
  toolLoopLabel: 'for loop over async generator rounds',

  stream(fixture, advisors) {
    let chunks: AsyncIterable<ChatChunk> = source(textChunks(fixture));
    for (let i = 0; i < advisors; i++) chunks = passThrough(chunks);
    return collect(chunks);
  },

  async toolLoop(rounds, fixture, kind = 'sync') {
    const final = textChunks(fixture);
    let text = '';
    for (let round = 1; ; round++) {
      let call: { id: string; arguments: string } | undefined;
      for await (const chunk of source(round <= rounds ? toolRoundChunks(round) : final)) {
        if (chunk.type === 'text-delta') text += chunk.text;
        else if (chunk.type === 'tool-call') call = chunk;
      }
      if (call === undefined) return text;
      // The asynchronous tool: parsed and validated with the same zod schema, then awaited.
      if (kind === 'async') await runAsyncNoop(call.arguments);
      else await Promise.resolve(noop());
    }
  },

  parked(fixture, parkAt, gate) {
    const { head, tail } = splitAtDelta(textChunks(fixture), parkAt);
    return collect(gated(head, tail, gate));
  },

  async firstChunk(fixture) {
    let first = -1;
    let text = '';
    const start = performance.now();
    for await (const chunk of source(textChunks(fixture))) {
      if (chunk.type !== 'text-delta') continue;
      if (first < 0) first = performance.now();
      text += chunk.text;
    }
    if (text !== fixture.text) throw new Error('floor-asyncgen W4 text mismatch');
    return (first - start) * 1000;
  },
};
