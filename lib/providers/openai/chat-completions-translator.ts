import type OpenAI from 'openai';
import type { FinishReason } from '../../core/chat-chunk.js';
import type { Usage } from '../../core/usage.js';
import { readStreamIndex, type ChunkSink, type StreamTranslator } from '../kit/index.js';

type ChatCompletionChunk = OpenAI.ChatCompletionChunk;

/** Fields OpenAI-compatible servers add to a delta (DeepSeek, vLLM, xAI: `reasoning_content`; Ollama, OpenRouter: `reasoning`). */
interface CompatDelta {
  reasoning_content?: string | null;
  reasoning?: string | null;
}

/** Usage as OpenAI and compatible servers send it (Groq repeats it under `x_groq`). */
interface CompatUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** DeepSeek's name for cached prompt tokens. */
  prompt_cache_hit_tokens?: number | null;
}

interface PendingToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Translates one Chat Completions stream into chunks: text, reasoning (`reasoning_content`
 * from compatible servers), tool-call fragments by index then complete `tool-call` chunks
 * when the choice finishes, refusals as text, and at the end one `usage` and one `finish`.
 * Only choice 0 is read (`n > 1` is not supported). A tool-call index is a key, not an
 * array position, and must be a non-negative integer (else a `ProviderProtocolError`).
 * @internal
 */
export class ChatCompletionsTranslator implements StreamTranslator<ChatCompletionChunk> {
  private metadataSent = false;
  /** By the stream's index: a key, so a hostile index (1e8) costs one entry, not a sparse array. */
  private readonly calls = new Map<number, PendingToolCall>();
  private callsEmitted = false;
  private finishReason: string | null = null;
  private refused = false;
  private usage: CompatUsage | undefined;

  event(chunk: ChatCompletionChunk, sink: ChunkSink): void {
    if (!this.metadataSent && chunk.id) {
      this.metadataSent = true;
      sink.next(
        chunk.model
          ? { type: 'metadata', id: chunk.id, model: chunk.model }
          : { type: 'metadata', id: chunk.id },
      );
    }
    const usage = (chunk.usage ?? (chunk as { x_groq?: { usage?: CompatUsage } }).x_groq?.usage) as
      CompatUsage | null | undefined;
    if (usage) this.usage = usage;

    const choice = chunk.choices?.[0];
    if (choice === undefined || choice.index > 0) return;
    const delta = choice.delta as (typeof choice.delta & CompatDelta) | undefined;
    if (delta) {
      const reasoning = delta.reasoning_content ?? delta.reasoning;
      if (typeof reasoning === 'string' && reasoning !== '') {
        sink.next({ type: 'reasoning-delta', text: reasoning });
      }
      if (typeof delta.content === 'string' && delta.content !== '') {
        sink.next({ type: 'text-delta', text: delta.content });
      }
      if (typeof delta.refusal === 'string' && delta.refusal !== '') {
        this.refused = true;
        sink.next({ type: 'text-delta', text: delta.refusal });
      }
      if (delta.tool_calls) {
        for (let i = 0; i < delta.tool_calls.length; i++)
          this.toolCallDelta(delta.tool_calls[i], i, sink);
      }
    }
    if (choice.finish_reason) {
      this.finishReason = choice.finish_reason;
      this.emitToolCalls(sink);
    }
  }

  end(sink: ChunkSink): void {
    this.emitToolCalls(sink);
    sink.next({ type: 'usage', usage: toUsage(this.usage) });
    sink.next({ type: 'finish', reason: this.finish() });
  }

  private toolCallDelta(
    fragment: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall,
    position: number,
    sink: ChunkSink,
  ): void {
    // Some compatible servers send no index; their fragments come in position order.
    const index =
      fragment.index === undefined || fragment.index === null
        ? position
        : readStreamIndex(fragment.index, `choices[0].delta.tool_calls[${position}].index`);
    const name = fragment.function?.name;
    const args = fragment.function?.arguments ?? '';
    const call = this.calls.get(index);
    if (call === undefined) {
      // Some compatible servers send no id; the tool result still needs one to answer.
      const id = fragment.id || `call_${index}`;
      this.calls.set(index, { id, name: name ?? '', arguments: args });
      sink.next(
        name
          ? { type: 'tool-call-delta', index, id, name, argumentsDelta: args }
          : { type: 'tool-call-delta', index, id, argumentsDelta: args },
      );
      return;
    }
    call.arguments += args;
    if (call.name === '' && name) {
      // The name came late (rare): the fragment that brings it carries it.
      call.name = name;
      sink.next({ type: 'tool-call-delta', index, name, argumentsDelta: args });
    } else if (args !== '') {
      sink.next({ type: 'tool-call-delta', index, argumentsDelta: args });
    }
  }

  private emitToolCalls(sink: ChunkSink): void {
    if (this.callsEmitted) return;
    this.callsEmitted = true;
    // In index order, as the API numbers them (a server may interleave their first fragments).
    const ordered = [...this.calls].sort(([a], [b]) => a - b);
    for (const [, call] of ordered) {
      sink.next({
        type: 'tool-call',
        id: call.id,
        name: call.name,
        arguments: call.arguments || '{}',
      });
    }
  }

  private finish(): FinishReason {
    switch (this.finishReason) {
      case 'stop':
        if (this.refused) return 'content-filter';
        // Some compatible servers (older Ollama, vLLM) report 'stop' after tool calls.
        return this.calls.size > 0 ? 'tool-calls' : 'stop';
      case 'length':
        return 'length';
      case 'tool_calls':
      case 'function_call':
        return 'tool-calls';
      case 'content_filter':
        return 'content-filter';
      default:
        return this.refused ? 'content-filter' : 'other';
    }
  }
}

function toUsage(usage: CompatUsage | undefined): Usage {
  const inputTokens = usage?.prompt_tokens ?? undefined;
  const outputTokens = usage?.completion_tokens ?? undefined;
  const result: Usage = {
    inputTokens,
    outputTokens,
    totalTokens:
      usage?.total_tokens ??
      (inputTokens !== undefined && outputTokens !== undefined
        ? inputTokens + outputTokens
        : undefined),
  };
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? usage?.prompt_cache_hit_tokens;
  if (typeof cached === 'number') result.cacheReadTokens = cached;
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') result.reasoningTokens = reasoning;
  return result;
}
