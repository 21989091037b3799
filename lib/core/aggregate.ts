import { defer, map, reduce, type OperatorFunction } from 'rxjs';
import type { ChatChunk } from './chat-chunk.js';
import type { ChatResponse } from './chat-response.js';
import { ResponseAssembler } from './response-assembler.js';

/**
 * Aggregates a chunk stream into one `ChatResponse` when it completes: text, reasoning,
 * tool calls (assembled from `tool-call-delta` fragments by index when no complete
 * `tool-call` chunk came), summed usage, the finish reason and metadata. A `retry`
 * chunk drops the text of the attempt before it. `call()` is `stream()` piped through this.
 *
 * ```
 * source:  --a--b--u--f|        a, b: text-delta 'Hi', ' there'; u: usage; f: finish
 * result:  ------------(r|)     r: { text: 'Hi there', usage, finishReason: 'stop' }
 * ```
 *
 * @example
 * ```ts partial
 * import { aggregate } from 'rx-advisors';
 *
 * model.stream(request).pipe(aggregate()).subscribe((response) => console.log(response.text));
 * ```
 * @returns An operator from chunks to a single response.
 */
export function aggregate(): OperatorFunction<ChatChunk, ChatResponse> {
  return (source) =>
    defer(() =>
      source.pipe(
        reduce(
          (assembler: ResponseAssembler, chunk: ChatChunk) => assembler.add(chunk),
          new ResponseAssembler(),
        ),
        map((assembler) => assembler.build()),
      ),
    );
}
