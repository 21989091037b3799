import type Anthropic from '@anthropic-ai/sdk';
import type { FinishReason } from '../../core/chat-chunk.js';
import type { Usage } from '../../core/usage.js';
import {
  CitedSources,
  readStreamIndex,
  StreamEventError,
  type ChunkSink,
  type StreamTranslator,
} from '../kit/index.js';

type RawMessageStreamEvent = Anthropic.RawMessageStreamEvent;

/** What is known about an open content block. */
type OpenBlock =
  | { kind: 'thinking'; text: string; signature: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; index: number; id: string; name: string; arguments: string }
  | { kind: 'other' };

/** Token counts as `message_start` and `message_delta` report them (the latter cumulative). */
interface TokenCounts {
  input: number | undefined;
  output: number | undefined;
  cacheRead: number | undefined;
  cacheWrite: number | undefined;
  thinking: number | undefined;
}

/**
 * Translates one Messages stream into chunks: text deltas, thinking deltas as
 * `reasoning-delta` and, when a thinking block ends, a `reasoning` chunk with its
 * signature (or the redacted block's data); `tool_use` blocks as `tool-call-delta` chunks
 * from `input_json_delta` and a `tool-call` at `content_block_stop`; web search citations
 * (`citations_delta` with a `web_search_result_location`) as URL sources with the URL as
 * id, each URL once per message; at the end one
 * `usage` (message_start counts updated by message_delta's cumulative ones) and a finish.
 * A content block's index is a `Map` key and must be a non-negative integer (else a
 * `ProviderProtocolError`).
 * @internal
 */
export class AnthropicStreamTranslator implements StreamTranslator<RawMessageStreamEvent> {
  private readonly blocks = new Map<number, OpenBlock>();
  private toolCount = 0;
  private stopReason: string | null = null;
  private stopped = false;
  private readonly sources = new CitedSources();
  private readonly tokens: TokenCounts = {
    input: undefined,
    output: undefined,
    cacheRead: undefined,
    cacheWrite: undefined,
    thinking: undefined,
  };

  event(event: RawMessageStreamEvent, sink: ChunkSink): void {
    switch (event.type) {
      case 'message_start':
        sink.next({ type: 'metadata', id: event.message.id, model: event.message.model });
        this.updateTokens(event.message.usage);
        return;
      case 'content_block_start':
        this.blockStart(event, sink);
        return;
      case 'content_block_delta':
        this.blockDelta(event, sink);
        return;
      case 'content_block_stop':
        this.blockStop(blockIndex(event), sink);
        return;
      case 'message_stop':
        this.stopped = true;
        return;
      case 'message_delta':
        if (event.delta.stop_reason !== null) this.stopReason = event.delta.stop_reason;
        this.updateTokens(event.usage);
        return;
      default:
        return;
    }
  }

  end(sink: ChunkSink): void {
    if (!this.stopped) {
      // The API always ends with message_stop; without it the answer was cut short.
      throw new StreamEventError(
        'incomplete_stream',
        'the stream ended before message_stop; the answer is incomplete',
        undefined,
      );
    }
    sink.next({ type: 'usage', usage: this.usage() });
    sink.next({ type: 'finish', reason: toFinishReason(this.stopReason) });
  }

  private blockStart(event: Anthropic.RawContentBlockStartEvent, sink: ChunkSink): void {
    const block = event.content_block;
    const index = blockIndex(event);
    switch (block.type) {
      case 'text':
        this.blocks.set(index, { kind: 'other' });
        if (block.text !== '') sink.next({ type: 'text-delta', text: block.text });
        return;
      case 'thinking':
        this.blocks.set(index, { kind: 'thinking', text: '', signature: block.signature });
        if (block.thinking !== '') this.thinkingDelta(index, block.thinking, sink);
        return;
      case 'redacted_thinking':
        this.blocks.set(index, { kind: 'redacted', data: block.data });
        return;
      case 'tool_use': {
        const tool = {
          kind: 'tool' as const,
          index: this.toolCount++,
          id: block.id,
          name: block.name,
          arguments: '',
        };
        this.blocks.set(index, tool);
        sink.next({
          type: 'tool-call-delta',
          index: tool.index,
          id: tool.id,
          name: tool.name,
          argumentsDelta: '',
        });
        return;
      }
      default:
        // Server tool blocks (web search…) are run by Anthropic, not by the tool loop.
        this.blocks.set(index, { kind: 'other' });
    }
  }

  private blockDelta(event: Anthropic.RawContentBlockDeltaEvent, sink: ChunkSink): void {
    const delta = event.delta;
    const index = blockIndex(event);
    switch (delta.type) {
      case 'text_delta':
        if (delta.text !== '') sink.next({ type: 'text-delta', text: delta.text });
        return;
      case 'thinking_delta':
        this.thinkingDelta(index, delta.thinking, sink);
        return;
      case 'signature_delta': {
        const block = this.blocks.get(index);
        if (block?.kind === 'thinking') block.signature += delta.signature;
        return;
      }
      case 'citations_delta':
        // Document citations (char, page, content block, search result) point into the
        // request's own content: only web search results are sources the user can open.
        if (delta.citation.type === 'web_search_result_location') {
          const { url, title } = delta.citation;
          this.sources.url({ url, title }, sink);
        }
        return;
      case 'input_json_delta': {
        const block = this.blocks.get(index);
        if (block?.kind !== 'tool' || delta.partial_json === '') return;
        block.arguments += delta.partial_json;
        sink.next({
          type: 'tool-call-delta',
          index: block.index,
          argumentsDelta: delta.partial_json,
        });
        return;
      }
      default:
        return;
    }
  }

  private thinkingDelta(index: number, text: string, sink: ChunkSink): void {
    if (text === '') return;
    const block = this.blocks.get(index);
    if (block?.kind === 'thinking') block.text += text;
    sink.next({ type: 'reasoning-delta', text });
  }

  private blockStop(index: number, sink: ChunkSink): void {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    if (block === undefined) return;
    switch (block.kind) {
      case 'thinking':
        sink.next(
          block.signature === ''
            ? { type: 'reasoning', text: block.text }
            : { type: 'reasoning', text: block.text, signature: block.signature },
        );
        return;
      case 'redacted':
        sink.next({ type: 'reasoning', text: '', redactedData: block.data });
        return;
      case 'tool':
        // A tool without arguments streams no JSON at all; its input is the empty object.
        sink.next({
          type: 'tool-call',
          id: block.id,
          name: block.name,
          arguments: block.arguments || '{}',
        });
        return;
      default:
        return;
    }
  }

  private updateTokens(usage: Partial<Anthropic.MessageDeltaUsage> | null | undefined): void {
    if (!usage) return;
    const tokens = this.tokens;
    if (typeof usage.input_tokens === 'number') tokens.input = usage.input_tokens;
    if (typeof usage.output_tokens === 'number') tokens.output = usage.output_tokens;
    if (typeof usage.cache_read_input_tokens === 'number')
      tokens.cacheRead = usage.cache_read_input_tokens;
    if (typeof usage.cache_creation_input_tokens === 'number') {
      tokens.cacheWrite = usage.cache_creation_input_tokens;
    }
    const thinking = usage.output_tokens_details?.thinking_tokens;
    if (typeof thinking === 'number') tokens.thinking = thinking;
  }

  /**
   * `inputTokens` is every input token, as OpenAI counts it: Anthropic's `input_tokens`
   * excludes the cached ones, so cache reads and writes are added back.
   */
  private usage(): Usage {
    const { input, output, cacheRead, cacheWrite, thinking } = this.tokens;
    const inputTokens =
      input === undefined ? undefined : input + (cacheRead ?? 0) + (cacheWrite ?? 0);
    const usage: Usage = {
      inputTokens,
      outputTokens: output,
      totalTokens:
        inputTokens !== undefined && output !== undefined ? inputTokens + output : undefined,
    };
    if (cacheRead !== undefined) usage.cacheReadTokens = cacheRead;
    if (cacheWrite !== undefined) usage.cacheWriteTokens = cacheWrite;
    if (thinking !== undefined) usage.reasoningTokens = thinking;
    return usage;
  }
}

/** The event's content block index, checked: it is a key of the open blocks. */
function blockIndex(event: { type: string; index: unknown }): number {
  return readStreamIndex(event.index, `${event.type}.index`);
}

function toFinishReason(reason: string | null): FinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'refusal':
      return 'content-filter';
    default:
      // pause_turn (a server tool loop paused; send the turn back to continue) and unknown reasons.
      return 'other';
  }
}
