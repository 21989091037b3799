import type {
  LanguageModelV2Usage,
  LanguageModelV3FinishReason,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import type { FinishReason } from '../../core/chat-chunk.js';
import type { ProviderMetadata } from '../../core/message.js';
import type { Usage } from '../../core/usage.js';
import {
  CitedSources,
  StreamEventError,
  type ChunkSink,
  type StreamTranslator,
  type ToProviderErrorOptions,
} from '../kit/index.js';
import { aiSdkError } from './ai-sdk-error.js';
import type { AiSdkStreamPart } from './ai-sdk-language-model.js';

/** An open reasoning block: its text so far and the provider's metadata for it. */
interface OpenReasoning {
  text: string;
  metadata: ProviderMetadata | undefined;
}

/** What `finish` reported. */
interface Finish {
  reason: FinishReason;
  usage: Usage;
}

/**
 * Translates one AI SDK stream (V3 or V2 parts) into chunks: `response-metadata` as
 * `metadata`; text deltas; reasoning deltas and, at `reasoning-end`, a `reasoning` chunk
 * with the provider metadata the provider needs back (signatures); `tool-input-*` as
 * `tool-call-delta` chunks (a call that arrives whole gets one delta with all its
 * arguments) and each `tool-call` as a complete call with its provider metadata; at the
 * end one `usage` (cache and reasoning counts included) and one `finish`. `source` parts
 * (Gemini's grounding, web search citations) are `source` chunks with the provider's id: a
 * URL source only for an `http(s)` URL, each URL once per call (see `CitedSources`).
 * Provider-executed tools, files and raw parts are not chunks. An `error` part fails the call.
 * @internal
 */
export class AiSdkStreamTranslator implements StreamTranslator<AiSdkStreamPart> {
  private readonly reasoning = new Map<string, OpenReasoning>();
  /** Tool-call indexes by the part's id, in the order the calls started. */
  private readonly toolIndexes = new Map<string, number>();
  private finish: Finish | undefined;
  private readonly sources = new CitedSources();

  /**
   * @param errors The provider name and secrets, for `error` parts.
   * @param modelId The model's id, reported when the provider's metadata names none (Gemini).
   */
  constructor(
    private readonly errors: ToProviderErrorOptions,
    private readonly modelId: string,
  ) {}

  event(part: AiSdkStreamPart, sink: ChunkSink): void {
    switch (part.type) {
      case 'response-metadata': {
        const chunk: { type: 'metadata'; id?: string; model: string } = {
          type: 'metadata',
          model: part.modelId ?? this.modelId,
        };
        if (part.id !== undefined) chunk.id = part.id;
        sink.next(chunk);
        return;
      }
      case 'text-delta':
        if (part.delta !== '') sink.next({ type: 'text-delta', text: part.delta });
        return;
      case 'reasoning-start':
        this.reasoning.set(part.id, { text: '', metadata: part.providerMetadata });
        return;
      case 'reasoning-delta': {
        const block = this.openReasoning(part.id);
        block.metadata = mergeMetadata(block.metadata, part.providerMetadata);
        if (part.delta === '') return;
        block.text += part.delta;
        sink.next({ type: 'reasoning-delta', text: part.delta });
        return;
      }
      case 'reasoning-end': {
        const block = this.openReasoning(part.id);
        this.reasoning.delete(part.id);
        const metadata = mergeMetadata(block.metadata, part.providerMetadata);
        sink.next(
          metadata === undefined
            ? { type: 'reasoning', text: block.text }
            : { type: 'reasoning', text: block.text, providerMetadata: metadata },
        );
        return;
      }
      case 'tool-input-start': {
        if (part.providerExecuted === true) return;
        const index = this.toolIndexes.size;
        this.toolIndexes.set(part.id, index);
        sink.next({
          type: 'tool-call-delta',
          index,
          id: part.id,
          name: part.toolName,
          argumentsDelta: '',
        });
        return;
      }
      case 'tool-input-delta': {
        const index = this.toolIndexes.get(part.id);
        if (index === undefined || part.delta === '') return;
        sink.next({ type: 'tool-call-delta', index, argumentsDelta: part.delta });
        return;
      }
      case 'tool-call':
        this.toolCall(part, sink);
        return;
      case 'finish':
        this.finish = {
          reason: toFinishReason(part.finishReason),
          usage: toUsage(part.usage),
        };
        return;
      case 'source':
        if (part.sourceType === 'url') {
          this.sources.url(part, sink);
        } else {
          this.sources.document(part, sink);
        }
        return;
      case 'error':
        throw aiSdkError(part.error, this.errors);
      default:
        // stream-start (warnings), text-start/end, tool-input-end, provider-run tool
        // results, files, approval requests and raw parts carry no chunk.
        return;
    }
  }

  end(sink: ChunkSink): void {
    if (this.finish === undefined) {
      throw new StreamEventError(
        'incomplete_stream',
        'the AI SDK stream ended without a finish part',
        undefined,
      );
    }
    sink.next({ type: 'usage', usage: this.finish.usage });
    sink.next({ type: 'finish', reason: this.finish.reason });
  }

  private toolCall(part: Extract<AiSdkStreamPart, { type: 'tool-call' }>, sink: ChunkSink): void {
    if (part.providerExecuted === true) return;
    const args = part.input === '' ? '{}' : part.input;
    if (!this.toolIndexes.has(part.toolCallId)) {
      // The provider sent the call whole (Gemini, Mistral): one delta with every argument.
      const index = this.toolIndexes.size;
      this.toolIndexes.set(part.toolCallId, index);
      sink.next({
        type: 'tool-call-delta',
        index,
        id: part.toolCallId,
        name: part.toolName,
        argumentsDelta: args,
      });
    }
    sink.next(
      part.providerMetadata === undefined
        ? { type: 'tool-call', id: part.toolCallId, name: part.toolName, arguments: args }
        : {
            type: 'tool-call',
            id: part.toolCallId,
            name: part.toolName,
            arguments: args,
            providerMetadata: part.providerMetadata,
          },
    );
  }

  private openReasoning(id: string): OpenReasoning {
    let block = this.reasoning.get(id);
    if (block === undefined) {
      // A delta without its start: tolerated, as the AI SDK's own stream consumers do.
      block = { text: '', metadata: undefined };
      this.reasoning.set(id, block);
    }
    return block;
  }
}

function mergeMetadata(
  a: ProviderMetadata | undefined,
  b: ProviderMetadata | undefined,
): ProviderMetadata | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const merged: ProviderMetadata = { ...a };
  for (const [key, value] of Object.entries(b)) merged[key] = { ...merged[key], ...value };
  return merged;
}

/** V3 reports `{ unified, raw }`; V2 the unified string itself. */
function toFinishReason(reason: LanguageModelV3FinishReason | string): FinishReason {
  const unified = typeof reason === 'string' ? reason : reason.unified;
  switch (unified) {
    case 'stop':
    case 'length':
    case 'content-filter':
    case 'tool-calls':
    case 'error':
      return unified;
    default:
      return 'other';
  }
}

/** V3 nests input and output details; V2 is flat. Unknown counts stay `undefined`. */
function toUsage(usage: LanguageModelV3Usage | LanguageModelV2Usage): Usage {
  const v3 = typeof usage.inputTokens === 'object' || typeof usage.outputTokens === 'object';
  let result: Usage;
  if (v3) {
    const { inputTokens, outputTokens } = usage as LanguageModelV3Usage;
    result = {
      inputTokens: inputTokens?.total,
      outputTokens: outputTokens?.total,
      totalTokens: undefined,
    };
    if (inputTokens?.cacheRead !== undefined) result.cacheReadTokens = inputTokens.cacheRead;
    if (inputTokens?.cacheWrite !== undefined) result.cacheWriteTokens = inputTokens.cacheWrite;
    if (outputTokens?.reasoning !== undefined) result.reasoningTokens = outputTokens.reasoning;
  } else {
    const flat = usage as LanguageModelV2Usage;
    result = {
      inputTokens: flat.inputTokens,
      outputTokens: flat.outputTokens,
      totalTokens: flat.totalTokens,
    };
    if (flat.cachedInputTokens !== undefined) result.cacheReadTokens = flat.cachedInputTokens;
    if (flat.reasoningTokens !== undefined) result.reasoningTokens = flat.reasoningTokens;
  }
  if (result.totalTokens === undefined && result.inputTokens !== undefined) {
    if (result.outputTokens !== undefined) {
      result.totalTokens = result.inputTokens + result.outputTokens;
    }
  }
  return result;
}
