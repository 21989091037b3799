import { from, Observable, Subscriber } from 'rxjs';
import type { ModelCallInterceptor } from '../../advisor-api/model-call-interceptor.js';
import type { ChatChunk } from '../../core/chat-chunk.js';
import { ResponseAssembler } from '../../core/response-assembler.js';
import type { DurableRunState } from './durable-run-state.js';
import { modelRoundRecord, replayedChunks } from './replayed-round.js';

/**
 * The durable run's model-call interceptor: the n-th model call of a subscription is
 * answered from the n-th recorded round when there is one (no model call), else made, and
 * recorded when it ends, before its completion lets the loop go on (so no tool of a round
 * runs before the round is in the journal); a round without tool calls rides with the
 * run's next append (its `run-ended`). A call that fails or is cut off records
 * nothing and takes no number: a retry of it is the same round.
 *
 * ```
 * recorded round 1:  (tcuf|)         replayed, no model call
 * live round 2:      --a--b--f--|    the chunks pass as they come; `|` waits for the append
 * ```
 * @internal
 */
export function modelRoundInterceptor(state: DurableRunState): ModelCallInterceptor {
  return (call, proceed) =>
    new Observable<ChatChunk>((subscriber) => {
      const index = state.completedRounds;
      const recorded = state.recorded?.rounds[index];
      if (recorded !== undefined) {
        return from(replayedChunks(recorded)).subscribe({
          next: (chunk) => subscriber.next(chunk),
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            state.completedRounds = index + 1;
            subscriber.complete();
          },
        });
      }
      // One subscriber for the round, no closures and no operator chain; no Promise when
      // the journal appends synchronously.
      return proceed(call.request).subscribe(new LiveRound(state, index, subscriber));
    });
}

/**
 * A live round's subscriber: passes the model's chunks on, assembles them, and records the
 * round at its end before completing (so no tool of it runs before it is in the journal).
 * A `Subscriber` subclass, as `DirectSubscriber`: no wrapped observer per round.
 */
class LiveRound extends Subscriber<ChatChunk> {
  /** Dropped once the round's record is built. */
  private assembler: ResponseAssembler | undefined = new ResponseAssembler();
  private sawUsage = false;

  constructor(
    private readonly state: DurableRunState,
    private readonly index: number,
    private readonly out: Subscriber<ChatChunk>,
  ) {
    super();
  }

  override next(chunk: ChatChunk): void {
    if (this.isStopped) return;
    try {
      this.assembler?.add(chunk);
    } catch (error) {
      this.out.error(error);
      return;
    }
    if (chunk.type === 'usage') this.sawUsage = true;
    this.out.next(chunk);
  }

  protected override _error(error: unknown): void {
    try {
      this.out.error(error);
    } finally {
      this.unsubscribe();
    }
  }

  protected override _complete(): void {
    try {
      this.record();
    } finally {
      this.unsubscribe();
    }
  }

  private record(): void {
    const { out, state } = this;
    let written: Promise<void> | undefined;
    try {
      const response = (this.assembler ?? new ResponseAssembler()).build();
      this.assembler = undefined;
      const record = modelRoundRecord(this.index + 1, response, this.sawUsage);
      // A round without tool calls ends the loop (or a retry follows): nothing runs on it,
      // so it rides with the next append (`run-ended`, or the retry's record).
      if (record.type === 'model-round' && (record.message.toolCalls?.length ?? 0) === 0) {
        state.appendWithNext(record);
      } else {
        written = state.write(record);
      }
    } catch (error) {
      out.error(error);
      return;
    }
    if (written === undefined) this.ended();
    else
      written.then(
        () => this.ended(),
        (error: unknown) => out.error(error),
      );
  }

  private ended(): void {
    if (this.out.closed) return;
    this.state.completedRounds = this.index + 1;
    this.out.complete();
  }
}
