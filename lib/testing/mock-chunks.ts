import type { ChatChunk } from '../core/chat-chunk.js';
import type { Usage } from '../core/usage.js';
import type { MockRound } from './mock-round.js';

/**
 * Turns a scripted round into the chunks a provider adapter would emit.
 * @param round The scripted round.
 * @param roundNumber The model call it answers, counting from 1 (for default ids).
 * @param model The model name for the metadata chunk.
 * @returns The chunks, finish included unless the round ends in an error.
 * @example
 * ```ts
 * import { mockChunks } from 'rx-advisors/testing';
 * mockChunks({ text: 'Hello world' }, 1, 'mock').map((c) => c.type);
 * // ['metadata', 'text-delta', 'text-delta', 'finish']
 * ```
 */
export function mockChunks(round: MockRound, roundNumber: number, model: string): ChatChunk[] {
  const chunks: ChatChunk[] = [{ type: 'metadata', id: round.id ?? `mock-${roundNumber}`, model }];
  for (const text of deltas(round.reasoning)) chunks.push({ type: 'reasoning-delta', text });
  for (const text of deltas(round.text)) chunks.push({ type: 'text-delta', text });
  const calls = (round.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${roundNumber}_${index}`,
    name: call.name,
    arguments:
      typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
  }));
  calls.forEach((call, index) => {
    fragments(call.arguments).forEach((argumentsDelta, position) => {
      chunks.push(
        position === 0
          ? { type: 'tool-call-delta', index, id: call.id, name: call.name, argumentsDelta }
          : { type: 'tool-call-delta', index, argumentsDelta },
      );
    });
  });
  for (const call of calls) chunks.push({ type: 'tool-call', ...call });
  if (round.usage !== undefined) chunks.push({ type: 'usage', usage: completeUsage(round.usage) });
  if (round.error === undefined) {
    chunks.push({
      type: 'finish',
      reason: round.finishReason ?? (calls.length > 0 ? 'tool-calls' : 'stop'),
    });
  }
  return chunks;
}

function deltas(text: string | readonly string[] | undefined): readonly string[] {
  if (text === undefined) return [];
  if (typeof text !== 'string') return text;
  if (text === '') return [];
  // Word by word, the leading space kept with each word, as providers tend to stream.
  return text.match(/\s*\S+|\s+$/g) ?? [text];
}

function fragments(text: string): string[] {
  if (text.length < 3) return [text];
  const size = Math.ceil(text.length / 3);
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts;
}

function completeUsage(usage: Partial<Usage>): Usage {
  const { inputTokens, outputTokens } = usage;
  const totalTokens =
    usage.totalTokens ??
    (inputTokens !== undefined && outputTokens !== undefined
      ? inputTokens + outputTokens
      : undefined);
  return { ...usage, inputTokens, outputTokens, totalTokens };
}
