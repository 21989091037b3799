import type { ChatChunk } from '../../core/chat-chunk.js';
import type { ChatResponse } from '../../core/chat-response.js';
import type { AssistantMessage } from '../../core/message.js';
import type { ModelRoundRecord } from '../run-record.js';
import { detachedCopy } from '../run-record-codec.js';
import type { NewRunRecord } from './durable-run-state.js';

/**
 * A recorded model round as the chunks a model would have sent: what the advisors inside
 * the loop and the loop itself see instead of a model call. The text comes as one delta.
 * @internal
 */
export function replayedChunks(record: ModelRoundRecord): ChatChunk[] {
  const { message } = record;
  const chunks: ChatChunk[] = [];
  if (record.responseId !== undefined || record.model !== undefined) {
    const metadata: ChatChunk = { type: 'metadata' };
    if (record.responseId !== undefined) metadata.id = record.responseId;
    if (record.model !== undefined) metadata.model = record.model;
    chunks.push(metadata);
  }
  if (record.reasoning !== undefined)
    chunks.push({ type: 'reasoning-delta', text: record.reasoning });
  for (const part of message.reasoning ?? []) chunks.push({ type: 'reasoning', ...part });
  if (message.content !== '') chunks.push({ type: 'text-delta', text: message.content });
  for (const call of message.toolCalls ?? []) chunks.push({ type: 'tool-call', ...call });
  if (record.usage !== undefined) chunks.push({ type: 'usage', usage: record.usage });
  chunks.push({ type: 'finish', reason: record.finishReason ?? 'stop' });
  return chunks;
}

/**
 * The record of a live model round, from its assembled response.
 * @internal
 * @param round The round's number in the run.
 * @param response The round's chunks, assembled.
 * @param sawUsage Whether the model reported usage.
 */
export function modelRoundRecord(
  round: number,
  response: ChatResponse,
  sawUsage: boolean,
): NewRunRecord {
  const record: { -readonly [K in keyof ModelRoundRecord]?: ModelRoundRecord[K] } = {
    type: 'model-round',
    round,
    // The durable run's own assembly: nobody else holds it, except the opaque provider data
    // of a call or a reasoning part, taken from the chunks the loop also sees (see APPEND_NOW).
    message: holdsProviderData(response.message)
      ? detachedCopy(response.message)
      : response.message,
    finishReason: response.finishReason,
  };
  if (sawUsage) record.usage = response.usage;
  if (response.reasoning !== undefined) record.reasoning = response.reasoning;
  if (response.metadata.id !== undefined) record.responseId = response.metadata.id;
  if (response.metadata.model !== undefined) record.model = response.metadata.model;
  return record as NewRunRecord;
}

/** Whether a message's tool calls or reasoning parts carry provider data (shared with chunks). */
function holdsProviderData(message: AssistantMessage): boolean {
  for (const call of message.toolCalls ?? []) if (call.providerMetadata !== undefined) return true;
  for (const part of message.reasoning ?? []) if (part.providerMetadata !== undefined) return true;
  return false;
}
