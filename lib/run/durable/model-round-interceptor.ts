import { from, Observable } from 'rxjs';
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
      // One subscriber for the round: no operator chain, no Promise when the journal
      // appends synchronously; the assembler is dropped once the round is built.
      let assembler: ResponseAssembler | undefined = new ResponseAssembler();
      let sawUsage = false;
      const ended = (): void => {
        if (subscriber.closed) return;
        state.completedRounds = index + 1;
        subscriber.complete();
      };
      return proceed(call.request).subscribe({
        next: (chunk) => {
          try {
            assembler?.add(chunk);
          } catch (error) {
            subscriber.error(error);
            return;
          }
          if (chunk.type === 'usage') sawUsage = true;
          subscriber.next(chunk);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          let written: Promise<void> | undefined;
          try {
            const response = (assembler ?? new ResponseAssembler()).build();
            assembler = undefined;
            const record = modelRoundRecord(index + 1, response, sawUsage);
            // A round without tool calls ends the loop (or a retry follows): nothing runs on
            // it, so it rides with the next append (`run-ended`, or the retry's record).
            if (record.type === 'model-round' && (record.message.toolCalls?.length ?? 0) === 0) {
              state.appendWithNext(record);
            } else {
              written = state.write(record);
            }
          } catch (error) {
            subscriber.error(error);
            return;
          }
          if (written === undefined) ended();
          else written.then(ended, (error: unknown) => subscriber.error(error));
        },
      });
    });
}
