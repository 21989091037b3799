import type OpenAI from 'openai';
import type { FinishReason, ReasoningChunk } from '../../core/chat-chunk.js';
import type { Usage } from '../../core/usage.js';
import { mediaTypeOfFilename } from './openai-media-types.js';
import {
  CitedSources,
  readStreamIndex,
  StreamEventError,
  type ChunkSink,
  type StreamTranslator,
} from '../kit/index.js';

type ResponseStreamEvent = OpenAI.Responses.ResponseStreamEvent;
type ResponseUsage = OpenAI.Responses.ResponseUsage;

interface PendingCall {
  index: number;
  id: string;
  name: string;
}

/**
 * Translates one Responses API stream into chunks: output text, reasoning summaries (and
 * raw reasoning text from compatible servers), function calls (`tool-call-delta` from the
 * argument deltas, `tool-call` when the item is done), one `reasoning` chunk per reasoning
 * item when it is done (its `id`, its summary as `text`, and `encryptedContent` when the call
 * asked for `reasoning.encrypted_content`), citations of the answer text as `source` chunks
 * (`url_citation`: a URL source with the URL as id, `file_citation`: a document source with
 * the file id as id; each once per response), then the usage of `response.completed` and a
 * finish. `error` and `response.failed` become a ProviderError. An `output_index` is a
 * `Map` key and must be a non-negative integer (else a `ProviderProtocolError`).
 * @internal
 */
export class ResponsesTranslator implements StreamTranslator<ResponseStreamEvent> {
  private readonly calls = new Map<number, PendingCall>();
  private callCount = 0;
  private reasoningText = '';
  private refused = false;
  private finishReason: FinishReason | undefined;
  private usage: ResponseUsage | null | undefined;
  private readonly sources = new CitedSources();

  event(event: ResponseStreamEvent, sink: ChunkSink): void {
    switch (event.type) {
      case 'response.created':
        sink.next({ type: 'metadata', id: event.response.id, model: event.response.model });
        return;
      case 'response.output_text.delta':
        if (event.delta !== '') sink.next({ type: 'text-delta', text: event.delta });
        return;
      case 'response.refusal.delta':
        this.refused = true;
        if (event.delta !== '') sink.next({ type: 'text-delta', text: event.delta });
        return;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        this.reasoningText += event.delta;
        if (event.delta !== '') sink.next({ type: 'reasoning-delta', text: event.delta });
        return;
      case 'response.reasoning_summary_part.added':
        // Summary parts are separate paragraphs of one reasoning item.
        if (event.summary_index > 0) {
          this.reasoningText += '\n\n';
          sink.next({ type: 'reasoning-delta', text: '\n\n' });
        }
        return;
      case 'response.output_item.added':
        if (event.item.type === 'function_call') {
          const call = { index: this.callCount++, id: event.item.call_id, name: event.item.name };
          this.calls.set(readStreamIndex(event.output_index, `${event.type}.output_index`), call);
          sink.next({
            type: 'tool-call-delta',
            index: call.index,
            id: call.id,
            name: call.name,
            argumentsDelta: event.item.arguments ?? '',
          });
        } else if (event.item.type === 'reasoning') {
          this.reasoningText = '';
        }
        return;
      case 'response.function_call_arguments.delta': {
        const call = this.calls.get(
          readStreamIndex(event.output_index, `${event.type}.output_index`),
        );
        if (call !== undefined && event.delta !== '') {
          sink.next({ type: 'tool-call-delta', index: call.index, argumentsDelta: event.delta });
        }
        return;
      }
      case 'response.output_item.done':
        this.itemDone(event.item, sink);
        return;
      case 'response.output_text.annotation.added':
        this.annotation(event.annotation, sink);
        return;
      case 'response.completed':
        this.usage = event.response.usage;
        this.finishReason =
          this.calls.size > 0 ? 'tool-calls' : this.refused ? 'content-filter' : 'stop';
        return;
      case 'response.incomplete': {
        this.usage = event.response.usage;
        const reason = event.response.incomplete_details?.reason;
        this.finishReason =
          reason === 'max_output_tokens'
            ? 'length'
            : reason === 'content_filter'
              ? 'content-filter'
              : 'other';
        return;
      }
      case 'response.failed': {
        const error = event.response.error;
        throw new StreamEventError(
          error?.code ?? 'response_failed',
          error?.message ?? 'the response failed',
          event,
        );
      }
      case 'error':
        // The SDK throws on `error` events shaped `{ error: {...} }`; this is the flat shape.
        throw new StreamEventError(event.code ?? 'stream_error', event.message, event);
      default:
        return;
    }
  }

  end(sink: ChunkSink): void {
    if (this.finishReason === undefined) {
      // The API always ends with response.completed (or incomplete/failed); without it the
      // answer was cut short.
      throw new StreamEventError(
        'incomplete_stream',
        'the stream ended before response.completed; the answer is incomplete',
        undefined,
      );
    }
    sink.next({ type: 'usage', usage: toUsage(this.usage) });
    sink.next({ type: 'finish', reason: this.finishReason });
  }

  /** The SDK types the annotation as `unknown`: its fields are checked before use. */
  private annotation(annotation: unknown, sink: ChunkSink): void {
    if (typeof annotation !== 'object' || annotation === null) return;
    const cited = annotation as Partial<Record<string, unknown>>;
    if (cited['type'] === 'url_citation' && typeof cited['url'] === 'string') {
      const title = cited['title'];
      this.sources.url(
        { url: cited['url'], title: typeof title === 'string' ? title : undefined },
        sink,
      );
    } else if (
      cited['type'] === 'file_citation' &&
      typeof cited['file_id'] === 'string' &&
      cited['file_id'] !== ''
    ) {
      const filename = typeof cited['filename'] === 'string' ? cited['filename'] : '';
      this.sources.document(
        {
          id: cited['file_id'],
          mediaType: mediaTypeOfFilename(filename),
          title: filename || cited['file_id'],
          filename,
        },
        sink,
      );
    }
  }

  private itemDone(item: OpenAI.Responses.ResponseOutputItem, sink: ChunkSink): void {
    if (item.type === 'function_call') {
      sink.next({
        type: 'tool-call',
        id: item.call_id,
        name: item.name,
        arguments: item.arguments || '{}',
      });
    } else if (item.type === 'reasoning') {
      const text = this.reasoningText || item.summary.map((part) => part.text).join('\n\n');
      this.reasoningText = '';
      // The done item holds the final encrypted content; the one in output_item.added may be
      // incomplete. Compatible servers may send no id: the part is then not sent back.
      const chunk: ReasoningChunk = { type: 'reasoning', text };
      if (typeof item.id === 'string' && item.id !== '') chunk.id = item.id;
      if (typeof item.encrypted_content === 'string' && item.encrypted_content !== '') {
        chunk.encryptedContent = item.encrypted_content;
      }
      sink.next(chunk);
    }
  }
}

function toUsage(usage: ResponseUsage | null | undefined): Usage {
  if (!usage) return { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined };
  const result: Usage = {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    totalTokens: usage.total_tokens,
  };
  const cached = usage.input_tokens_details?.cached_tokens;
  if (typeof cached === 'number') result.cacheReadTokens = cached;
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') result.reasoningTokens = reasoning;
  return result;
}
