import { assertNever } from './assert-never.js';
import type { ChatChunk, FinishReason, SourceChunk } from './chat-chunk.js';
import type { ChatResponse } from './chat-response.js';
import type { LoopStopReason } from './loop-stop-reason.js';
import type { AssistantMessage, ReasoningPart, ToolCall } from './message.js';
import type { DocumentSource, Source, UrlSource } from './source.js';
import { emptyUsage } from './usage.js';
import { UsageAccumulator } from './usage-accumulator.js';

interface PendingCall {
  id: string | undefined;
  name: string | undefined;
  arguments: string;
}

/**
 * Folds chunks into a `ChatResponse`, one chunk at a time, without per-chunk
 * allocation for text. Reused by `aggregate()` and by advisors that assemble rounds.
 *
 * @example
 * ```ts
 * import { ResponseAssembler } from 'rx-advisors';
 *
 * const assembler = new ResponseAssembler();
 * assembler.add({ type: 'text-delta', text: 'Hi' }).add({ type: 'finish', reason: 'stop' });
 * assembler.build().text; // 'Hi'
 * ```
 */
export class ResponseAssembler {
  private text = '';
  private reasoning = '';
  private reasoningParts: ReasoningPart[] | undefined;
  private toolCalls: ToolCall[] | undefined;
  // Keyed by index (a Map, not a sparse array: a hostile index such as 2e8 must not cost 2e8 steps).
  private pending: Map<number, PendingCall> | undefined;
  private usage: UsageAccumulator | undefined;
  private finishReason: FinishReason | undefined;
  private id: string | undefined;
  private model: string | undefined;
  private rounds: number | undefined;
  private stopReason: LoopStopReason | undefined;
  // Keyed by id: a source sent again (a re-run retrieval) replaces the first, in its place.
  private sources: Map<string, Source> | undefined;

  /**
   * Folds one chunk in.
   * @param chunk The next chunk of the stream.
   * @returns this, for chaining (and for use as a `reduce` accumulator).
   */
  add(chunk: ChatChunk): this {
    switch (chunk.type) {
      case 'text-delta':
        this.text += chunk.text;
        break;
      case 'reasoning-delta':
        this.reasoning += chunk.text;
        break;
      case 'reasoning':
        (this.reasoningParts ??= []).push(toReasoningPart(chunk));
        break;
      case 'tool-call-delta':
        this.addToolCallDelta(chunk.index, chunk.id, chunk.name, chunk.argumentsDelta);
        break;
      case 'tool-call':
        (this.toolCalls ??= []).push(toToolCall(chunk));
        break;
      case 'usage':
        (this.usage ??= new UsageAccumulator()).add(chunk.usage);
        break;
      case 'metadata':
        if (chunk.id !== undefined) this.id = chunk.id;
        if (chunk.model !== undefined) this.model = chunk.model;
        if (chunk.rounds !== undefined) this.rounds = chunk.rounds;
        if (chunk.stopReason !== undefined) this.stopReason = chunk.stopReason;
        break;
      case 'finish':
        this.finishReason = chunk.reason;
        break;
      case 'guardrail-tripped':
        // A withdrawn answer is dropped like a retried attempt's; the replacement follows.
        if (!chunk.withdraw) break;
        this.text = '';
        this.reasoning = '';
        this.reasoningParts = undefined;
        break;
      case 'retry':
        // A new attempt replaces what the previous one said; usage and metadata stay.
        this.text = '';
        this.reasoning = '';
        this.reasoningParts = undefined;
        this.toolCalls = undefined;
        this.pending = undefined;
        break;
      case 'source':
        // Sources are not what the model said: a `retry` keeps them, like usage and metadata.
        (this.sources ??= new Map()).set(chunk.id, toSource(chunk));
        break;
      case 'tool-result':
      case 'tool-approval-request':
      case 'round-start':
      case 'round-end':
      case 'data':
        break;
      default:
        assertNever(chunk, 'Unknown chunk type');
    }
    return this;
  }

  /** The text assembled so far. */
  get currentText(): string {
    return this.text;
  }

  /**
   * The tool calls seen so far: the complete `tool-call` chunks when there are any,
   * otherwise the calls assembled from `tool-call-delta` fragments by index.
   * @returns A new array (empty when there were none).
   */
  collectToolCalls(): ToolCall[] {
    if (this.toolCalls !== undefined) return this.toolCalls.slice();
    if (this.pending === undefined) return [];
    return [...this.pending]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({
        id: call.id ?? `call_${index}`,
        name: call.name ?? '',
        arguments: call.arguments,
      }));
  }

  /**
   * The response so far.
   * @returns A new `ChatResponse`; a stream without a finish chunk reports `'other'`.
   */
  build(): ChatResponse {
    const message: AssistantMessage = { role: 'assistant', content: this.text };
    const toolCalls = this.collectToolCalls();
    if (toolCalls.length > 0) message.toolCalls = toolCalls;
    if (this.reasoningParts !== undefined) message.reasoning = this.reasoningParts.slice();
    const response: ChatResponse = {
      message,
      text: this.text,
      usage: this.usage?.total ?? emptyUsage(),
      finishReason: this.finishReason ?? 'other',
      metadata: { rounds: this.rounds ?? 1 },
    };
    if (this.reasoning !== '') response.reasoning = this.reasoning;
    if (this.id !== undefined) response.metadata.id = this.id;
    if (this.model !== undefined) response.metadata.model = this.model;
    if (this.sources !== undefined) response.metadata.sources = [...this.sources.values()];
    if (this.stopReason !== undefined) response.metadata.stopReason = this.stopReason;
    return response;
  }

  private addToolCallDelta(
    index: number,
    id: string | undefined,
    name: string | undefined,
    argumentsDelta: string,
  ): void {
    const pending = (this.pending ??= new Map<number, PendingCall>());
    const call = pending.get(index);
    if (call === undefined) {
      pending.set(index, { id, name, arguments: argumentsDelta });
      return;
    }
    if (call.id === undefined && id !== undefined) call.id = id;
    if (call.name === undefined && name !== undefined) call.name = name;
    call.arguments += argumentsDelta;
  }
}

function toReasoningPart(chunk: ReasoningPart): ReasoningPart {
  const part: ReasoningPart = { text: chunk.text };
  if (chunk.signature !== undefined) part.signature = chunk.signature;
  if (chunk.redactedData !== undefined) part.redactedData = chunk.redactedData;
  if (chunk.id !== undefined) part.id = chunk.id;
  if (chunk.encryptedContent !== undefined) part.encryptedContent = chunk.encryptedContent;
  if (chunk.providerMetadata !== undefined) part.providerMetadata = chunk.providerMetadata;
  return part;
}

function toSource(chunk: SourceChunk): Source {
  if (chunk.sourceType === 'url') {
    const source: UrlSource = { sourceType: 'url', id: chunk.id, url: chunk.url };
    if (chunk.title !== undefined) source.title = chunk.title;
    return source;
  }
  const { id, mediaType, title, filename } = chunk;
  const source: DocumentSource = { sourceType: 'document', id, mediaType, title };
  if (filename !== undefined) source.filename = filename;
  return source;
}

function toToolCall(chunk: ToolCall): ToolCall {
  const call: ToolCall = { id: chunk.id, name: chunk.name, arguments: chunk.arguments };
  // Opaque provider data (a Gemini thought signature) goes back with the call next round.
  if (chunk.providerMetadata !== undefined) call.providerMetadata = chunk.providerMetadata;
  return call;
}
