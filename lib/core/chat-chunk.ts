import type { ReasoningPart, ToolCall } from './message.js';
import type { DocumentSource, UrlSource } from './source.js';
import type { GuardrailTrippedChunk } from './guardrail-tripped-chunk.js';
import type { Usage } from './usage.js';
import type { LoopStopReason } from './loop-stop-reason.js';

export type { GuardrailTrippedChunk } from './guardrail-tripped-chunk.js';

/**
 * Why a model stopped. `return-direct` is set by the tool loop when a return-direct
 * tool ended it; `error` when a stream ended on a reported failure; `awaiting-approval`
 * when the tool loop stopped at calls that need a human decision (no `approve` option).
 */
export type FinishReason =
  | 'stop'
  | 'length'
  | 'tool-calls'
  | 'content-filter'
  | 'return-direct'
  | 'error'
  | 'other'
  | 'awaiting-approval';

/**
 * A piece of answer text.
 * @example
 * ```ts
 * import type { TextDeltaChunk } from 'rx-advisors';
 * const chunk: TextDeltaChunk = { type: 'text-delta', text: 'Hel' };
 * ```
 */
export interface TextDeltaChunk {
  type: 'text-delta';
  text: string;
}

/** A piece of model reasoning ("thinking") text. */
export interface ReasoningDeltaChunk {
  type: 'reasoning-delta';
  text: string;
}

/**
 * A complete reasoning block, emitted once it ends, with what the provider needs to get it
 * back: Anthropic's `signature` or `redactedData`, OpenAI Responses' item `id` and
 * `encryptedContent`. The aggregated assistant message keeps it (as a {@link ReasoningPart})
 * for the next round; its text was streamed before as `reasoning-delta` chunks.
 *
 * @example
 * ```ts
 * import type { ReasoningChunk } from 'rx-advisors';
 *
 * const anthropic: ReasoningChunk = { type: 'reasoning', text: 'Let me think…', signature: 'EqQB…' };
 * const openAi: ReasoningChunk = {
 *   type: 'reasoning',
 *   text: '**Planning the calculation**',
 *   id: 'rs_0183…',
 *   encryptedContent: 'gAAAAABpPDIV…',
 * };
 * ```
 */
export interface ReasoningChunk extends ReasoningPart {
  type: 'reasoning';
}

/**
 * A fragment of a tool call being streamed: `id` and `name` come with the first
 * fragment of an `index`, `argumentsDelta` pieces concatenate to the JSON arguments.
 */
export interface ToolCallDeltaChunk {
  type: 'tool-call-delta';
  index: number;
  id?: string;
  name?: string;
  argumentsDelta: string;
}

/**
 * A complete tool call, emitted once its arguments are complete (flat: `{ type, id, name, arguments }`).
 * @example
 * ```ts
 * import type { ToolCallChunk } from 'rx-advisors';
 * const chunk: ToolCallChunk = { type: 'tool-call', id: 'c1', name: 'getTime', arguments: '{}' };
 * ```
 */
export interface ToolCallChunk extends ToolCall {
  type: 'tool-call';
}

/**
 * The result of a tool the loop ran (sent outbound only with `emitToolEvents`). With
 * `preliminary: true` it is an intermediate value of an Observable tool (progress): the
 * client may show it, the model never sees it, and the call's final `tool-result` (without
 * `preliminary`) follows.
 * @example
 * ```ts
 * import type { ToolResultChunk } from 'rx-advisors';
 * const progress: ToolResultChunk = { type: 'tool-result', id: 'c1', name: 'search', content: '2 of 5 sites', preliminary: true };
 * const result: ToolResultChunk = { type: 'tool-result', id: 'c1', name: 'search', content: '5 hits' };
 * ```
 */
export interface ToolResultChunk {
  type: 'tool-result';
  id: string;
  name: string;
  content: string;
  isError?: boolean;
  /** An intermediate value of an Observable tool; the final result follows. */
  preliminary?: boolean;
  /**
   * A nested agent's chunk this preliminary result carries as it is (`agentTool`; read it
   * with `agentChunkOf`): the agents it comes through, outermost first, and the chunk.
   */
  agentChunk?: { readonly agentPath: readonly string[]; readonly chunk: ChatChunk };
}

/**
 * The tool loop asks for a human decision on a tool call before it runs it (see
 * `docs/tool-calling.md`, "Approval"). `approvalId` answers it in the decision.
 * @example
 * ```ts
 * import type { ToolApprovalRequestChunk } from 'rx-advisors';
 * const chunk: ToolApprovalRequestChunk = {
 *   type: 'tool-approval-request',
 *   approvalId: 'approval-c1',
 *   toolCall: { id: 'c1', name: 'deleteUser', arguments: '{"id":7}' },
 * };
 * ```
 */
export interface ToolApprovalRequestChunk {
  type: 'tool-approval-request';
  approvalId: string;
  toolCall: ToolCall;
}

/** Token usage of the model calls behind the stream so far that no earlier usage chunk reported. */
export interface UsageChunk {
  type: 'usage';
  usage: Usage;
}

/** Response metadata: provider response id, model, and (from recursive advisors) the model calls made. */
export interface MetadataChunk {
  type: 'metadata';
  id?: string;
  model?: string;
  /** Model calls behind this stream, set by recursive advisors (tool loop, retries). */
  rounds?: number;
  /** Why the tool loop stopped early (a `stopWhen` condition, a budget); absent otherwise. */
  stopReason?: LoopStopReason;
}

/** Why the stream ended. Always the last chunk of a stream. */
export interface FinishChunk {
  type: 'finish';
  reason: FinishReason;
}

/** A tool-loop round (model call) begins; `round` counts from 1. */
export interface RoundStartChunk {
  type: 'round-start';
  round: number;
}

/** A tool-loop round ends. */
export interface RoundEndChunk {
  type: 'round-end';
  round: number;
  finishReason: FinishReason;
}

/**
 * A recursive advisor is about to try again: whatever a client showed of the previous
 * attempt should be dropped.
 */
export interface RetryChunk {
  type: 'retry';
  /** The attempt that starts now, counting from 1 (so the first retry is 2). */
  attempt: number;
  /** Why the previous attempt was rejected. */
  reason: string;
  /** Which advisor retries. */
  advisor: string;
  /**
   * Milliseconds (RxJS time) the advisor waits before the attempt starts, when it waits
   * (a backoff, a provider's Retry-After); absent when the attempt starts at once.
   */
  delay?: number;
}

/**
 * Custom data an advisor sends to the client (sources, progress, a status line): the UI
 * stream encodes it as a `data-<name>` part, our protocol as a `data` event. It is
 * invisible to the model: `aggregate()` and the response ignore it, so it never reaches a
 * next request or memory; the tool loop forwards it.
 *
 * @example
 * ```ts
 * import type { DataChunk } from 'rx-advisors';
 * const sources: DataChunk = { type: 'data', name: 'sources', data: [{ url: 'https://example.com' }] };
 * const status: DataChunk = { type: 'data', name: 'status', data: 'Searching…', transient: true };
 * ```
 */
export interface DataChunk {
  type: 'data';
  /** The data part's name: the UI part's type is `data-<name>`. */
  name: string;
  /** Any JSON value. */
  data: unknown;
  /** A part with the same name and id replaces the earlier one in the client's message. */
  id?: string;
  /** Sent to the client's `onData` only, not kept in the message (the UI stream's `transient`). */
  transient?: boolean;
}

/**
 * A web page the answer draws on, sent to the client before the answer (the UI stream's
 * `source-url` part). Like `data`, it never reaches the model or memory; `aggregate()` keeps
 * it in `ChatResponse.metadata.sources`.
 * @example
 * ```ts
 * import type { UrlSourceChunk } from 'rx-advisors';
 * const chunk: UrlSourceChunk = { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com' };
 * ```
 */
export interface UrlSourceChunk extends UrlSource {
  type: 'source';
}

/**
 * A document the answer draws on (the UI stream's `source-document` part); see
 * {@link UrlSourceChunk}.
 * @example
 * ```ts
 * import type { DocumentSourceChunk } from 'rx-advisors';
 * const chunk: DocumentSourceChunk = {
 *   type: 'source',
 *   sourceType: 'document',
 *   id: 'refunds',
 *   mediaType: 'text/markdown',
 *   title: 'Refunds',
 * };
 * ```
 */
export interface DocumentSourceChunk extends DocumentSource {
  type: 'source';
}

/**
 * A source of the answer (`QuestionAnswerAdvisor` with `emitSources`): a URL or a document,
 * told apart by `sourceType`.
 * @example
 * ```ts
 * import type { SourceChunk } from 'rx-advisors';
 * const label = (c: SourceChunk): string => (c.sourceType === 'url' ? c.url : c.title);
 * ```
 */
export type SourceChunk = UrlSourceChunk | DocumentSourceChunk;

/**
 * The unit of every stream: a discriminated union on `type`. Chunks are plain,
 * serialisable objects.
 *
 * @example
 * ```ts
 * import type { ChatChunk } from 'rx-advisors';
 *
 * function describe(chunk: ChatChunk): string {
 *   switch (chunk.type) {
 *     case 'text-delta':
 *       return chunk.text;
 *     default:
 *       return `[${chunk.type}]`;
 *   }
 * }
 * ```
 */
export type ChatChunk =
  | TextDeltaChunk
  | ReasoningDeltaChunk
  | ReasoningChunk
  | ToolCallDeltaChunk
  | ToolCallChunk
  | ToolResultChunk
  | ToolApprovalRequestChunk
  | UsageChunk
  | MetadataChunk
  | FinishChunk
  | RoundStartChunk
  | RoundEndChunk
  | RetryChunk
  | DataChunk
  | SourceChunk
  | GuardrailTrippedChunk;

/** The `type` values of {@link ChatChunk}. */
export type ChatChunkType = ChatChunk['type'];
