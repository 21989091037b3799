import type { LoopAnswer } from '../advisor-api/loop-answer.js';
import type { ChatChunk, TextDeltaChunk } from '../core/chat-chunk.js';
import type { ToolMessage } from '../core/message.js';
import type { ToolLoopSummary } from './tool-loop-state.js';

/**
 * The chunks that end a tool loop: one `metadata` (last id and model, rounds), one `usage`
 * (the total), one `finish`.
 * @internal
 */
export function finalChunks(summary: ToolLoopSummary): ChatChunk[] {
  const metadata: ChatChunk = { type: 'metadata', rounds: summary.rounds };
  if (summary.id !== undefined) metadata.id = summary.id;
  if (summary.model !== undefined) metadata.model = summary.model;
  if (summary.stopReason !== undefined) metadata.stopReason = summary.stopReason;
  return [
    metadata,
    { type: 'usage', usage: summary.usage },
    { type: 'finish', reason: summary.finishReason },
  ];
}

/**
 * A tool result as an outbound `tool-result` chunk (with `emitToolEvents`).
 * @internal
 */
export function toToolResultChunk(message: ToolMessage): ChatChunk {
  const chunk: ChatChunk = {
    type: 'tool-result',
    id: message.toolCallId,
    name: message.name,
    content: message.content,
  };
  if (message.isError === true) chunk.isError = true;
  return chunk;
}

/**
 * The answer of a round whose tools are all return-direct: their results, one per line
 * (added to the nested agent's `answer` the loop keeps, if any).
 * @internal
 */
export function returnDirectText(
  results: readonly ToolMessage[],
  answer?: LoopAnswer,
): TextDeltaChunk {
  const text = results.map((result) => result.content).join('\n');
  answer?.addRound(text, false);
  return { type: 'text-delta', text };
}
