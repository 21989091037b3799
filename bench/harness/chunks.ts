import type { ChatChunk, ChatRequest } from '../../lib/index.js';
import type { TextFixture } from './types.js';

/** The usage every scripted model call reports. */
export const BENCH_USAGE = { inputTokens: 12, outputTokens: 34, totalTokens: 46 } as const;

/** The name of the one trivial tool of the tool-loop workloads. */
export const TOOL_NAME = 'noop';

const textCache = new WeakMap<TextFixture, readonly ChatChunk[]>();

/**
 * The rx-advisors chunks of one answer: metadata, the text deltas, usage, finish.
 * Built once per fixture and shared (chunks are never mutated), so no run pays for them.
 * @param fixture The text.
 * @returns The chunks.
 */
export function textChunks(fixture: TextFixture): readonly ChatChunk[] {
  let chunks = textCache.get(fixture);
  if (chunks === undefined) {
    const list: ChatChunk[] = [{ type: 'metadata', id: 'bench-1', model: 'bench-model' }];
    for (const text of fixture.deltas) list.push({ type: 'text-delta', text });
    list.push({ type: 'usage', usage: { ...BENCH_USAGE } });
    list.push({ type: 'finish', reason: 'stop' });
    chunks = list;
    textCache.set(fixture, chunks);
  }
  return chunks;
}

const toolRounds: ChatChunk[][] = [];

/**
 * The rx-advisors chunks of tool round `round` (from 1): one streamed tool call with empty
 * arguments, usage, finish `tool-calls`.
 * @param round The round number (gives the call id).
 * @returns The chunks (cached per round).
 */
export function toolRoundChunks(round: number): readonly ChatChunk[] {
  let chunks = toolRounds[round];
  if (chunks === undefined) {
    const id = `call_${round}`;
    chunks = [
      { type: 'metadata', id: `bench-${round}`, model: 'bench-model' },
      { type: 'tool-call-delta', index: 0, id, name: TOOL_NAME, argumentsDelta: '{}' },
      { type: 'tool-call', id, name: TOOL_NAME, arguments: '{}' },
      { type: 'usage', usage: { ...BENCH_USAGE } },
      { type: 'finish', reason: 'tool-calls' },
    ];
    toolRounds[round] = chunks;
  }
  return chunks;
}

/**
 * Splits `chunks` after the `parkAt`-th text delta (W3).
 * @param chunks An answer's chunks.
 * @param parkAt How many text deltas come before the gate.
 * @returns The chunks before and after the gate.
 */
export function splitAtDelta(
  chunks: readonly ChatChunk[],
  parkAt: number,
): { head: readonly ChatChunk[]; tail: readonly ChatChunk[] } {
  let seen = 0;
  let index = 0;
  while (index < chunks.length && seen < parkAt) {
    if (chunks[index].type === 'text-delta') seen++;
    index++;
  }
  return { head: chunks.slice(0, index), tail: chunks.slice(index) };
}

/**
 * Which tool-loop round a request is (from 1): the tool results after the last user message,
 * plus one. Lets one model (and one client) serve every call, like a server's.
 * @param request The round's request.
 * @returns The round number.
 */
export function roundOf(request: ChatRequest): number {
  let round = 1;
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const role = request.messages[i].role;
    if (role === 'user') break;
    if (role === 'tool') round++;
  }
  return round;
}
