import { randomUUID } from 'node:crypto';
import { concatMap, defer, from, map, of, timer, type Observable } from 'rxjs';
import type { ChatChunk, ChatModel, ChatRequest, Usage } from '../../lib/index.js';
import { InvalidOptionsError } from '../../lib/index.js';
import { offlineReply, type OfflineReply } from './offline-reply.js';

/** Options of {@link OfflineDemoModel}. */
export interface OfflineDemoModelOptions {
  /** Milliseconds (RxJS time) between text deltas, so streaming is visible; default 30. */
  interval?: number;
  /** Milliseconds (RxJS time) before the first chunk, like a real model's latency; default 150. */
  firstChunkDelay?: number;
  /** Reported in metadata chunks; default `'offline-demo'`. */
  model?: string;
}

/**
 * The model `npm start` uses when no API key is set. It is no language model: it reads
 * the request like one would (see `offlineReply`): it asks for `getTime` and
 * `usersRegisteredOn` tool calls when the user asks for them, answers from the tool results
 * the real tool loop sends back, and says it is offline. Text streams word by word on an
 * RxJS timer; usage is an estimate (characters / 4), as there is no tokenizer.
 *
 * @example
 * ```ts
 * const client = ChatClient.builder(new OfflineDemoModel({ interval: 30 }))
 *   .defaultTools(createGetTimeTool())
 *   .build();
 * client.prompt('What time is it in Paris?').stream().content().subscribe(console.log);
 * ```
 */
export class OfflineDemoModel implements ChatModel {
  readonly provider = 'offline';
  /** The model name reported in metadata. */
  readonly model: string;
  private readonly interval: number;
  private readonly firstChunkDelay: number;

  /** @param options Pacing and model name; all optional. */
  constructor(options: OfflineDemoModelOptions = {}) {
    const { interval = 30, firstChunkDelay = 150, model = 'offline-demo' } = options;
    checkMillis('interval', interval);
    checkMillis('firstChunkDelay', firstChunkDelay);
    this.interval = interval;
    this.firstChunkDelay = firstChunkDelay;
    this.model = model;
  }

  /**
   * Streams one round (cold: the reply is worked out on subscription).
   * @param request The round's request.
   * @returns Metadata, tool calls or text deltas, usage, finish.
   */
  stream(request: ChatRequest): Observable<ChatChunk> {
    return defer(() => {
      const chunks = this.chunksOf(offlineReply(request), request);
      const { interval } = this;
      return timer(this.firstChunkDelay).pipe(
        concatMap(() => from(chunks)),
        concatMap((chunk) =>
          chunk.type === 'text-delta' && interval > 0
            ? timer(interval).pipe(map(() => chunk))
            : of(chunk),
        ),
      );
    });
  }

  private chunksOf(reply: OfflineReply, request: ChatRequest): ChatChunk[] {
    const chunks: ChatChunk[] = [
      { type: 'metadata', id: `offline-${randomUUID()}`, model: this.model },
    ];
    let outputChars = 0;
    if (reply.kind === 'tool-calls') {
      const calls = reply.toolCalls.map((call) => ({
        ...call,
        id: `call_${randomUUID().slice(0, 8)}`,
      }));
      calls.forEach((call, index) => {
        chunks.push({
          type: 'tool-call-delta',
          index,
          id: call.id,
          name: call.name,
          argumentsDelta: call.arguments,
        });
        outputChars += call.name.length + call.arguments.length;
      });
      for (const call of calls) chunks.push({ type: 'tool-call', ...call });
    } else {
      for (const word of reply.text.match(/\S+\s*/g) ?? []) {
        chunks.push({ type: 'text-delta', text: word });
      }
      outputChars = reply.text.length;
    }
    chunks.push({ type: 'usage', usage: estimateUsage(request, outputChars) });
    chunks.push({ type: 'finish', reason: reply.kind === 'tool-calls' ? 'tool-calls' : 'stop' });
    return chunks;
  }
}

function estimateUsage(request: ChatRequest, outputChars: number): Usage {
  let inputChars = 0;
  for (const message of request.messages) {
    inputChars += message.content.length;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) inputChars += call.arguments.length;
    }
  }
  for (const tool of request.tools) inputChars += tool.description.length;
  const inputTokens = Math.ceil(inputChars / 4);
  const outputTokens = Math.ceil(outputChars / 4);
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

function checkMillis(option: string, value: number): void {
  if (!(typeof value === 'number' && value >= 0 && value < Infinity)) {
    throw new InvalidOptionsError({
      option,
      value,
      expected: 'a number of milliseconds, 0 or more',
    });
  }
}
