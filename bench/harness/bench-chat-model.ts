import { concat, defer, from, ignoreElements, type Observable } from 'rxjs';
import type { ChatChunk, ChatModel, ChatRequest } from '../../lib/index.js';
import type { Gate } from './types.js';

/** Options of {@link BenchChatModel}. */
export interface BenchChatModelOptions {
  /** The chunks of model call `call` (counting from 1 per model instance). */
  script: (call: number, request: ChatRequest) => readonly ChatChunk[];
  /** W3: park every stream after `head` until the gate opens, then stream `tail`. */
  park?: { head: readonly ChatChunk[]; tail: readonly ChatChunk[]; gate: Gate };
}

/**
 * A chat model for benchmarks: streams precomputed chunk arrays (no word splitting, no
 * per-call allocation besides RxJS's own), records nothing.
 */
export class BenchChatModel implements ChatModel {
  readonly provider = 'bench';
  private calls = 0;

  constructor(private readonly options: BenchChatModelOptions) {}

  stream(request: ChatRequest): Observable<ChatChunk> {
    const { script, park } = this.options;
    if (park !== undefined) {
      const { head, tail, gate } = park;
      return concat(
        from(head),
        defer(() => {
          gate.arrive();
          return from(gate.opened);
        }).pipe(ignoreElements()),
        from(tail),
      );
    }
    return defer(() => from(script(++this.calls, request)));
  }
}
