import { concat, defer, EMPTY, from, ignoreElements, tap, type Observable } from 'rxjs';
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
    defer((): Observable<ChatChunk> => {
      const index = state.completedRounds;
      const recorded = state.recorded?.rounds[index];
      const done = (): void => {
        state.completedRounds = index + 1;
      };
      if (recorded !== undefined) {
        return from(replayedChunks(recorded)).pipe(tap({ complete: done }));
      }
      const assembler = new ResponseAssembler();
      let sawUsage = false;
      const live$ = proceed(call.request).pipe(
        tap((chunk) => {
          assembler.add(chunk);
          if (chunk.type === 'usage') sawUsage = true;
        }),
      );
      const record$ = defer(() => {
        const record = modelRoundRecord(index + 1, assembler.build(), sawUsage);
        // A round without tool calls ends the loop (or a retry follows): nothing runs on
        // it, so it rides with the next append (`run-ended`, or the retry's record).
        if (record.type === 'model-round' && (record.message.toolCalls?.length ?? 0) === 0) {
          state.appendWithNext(record);
          return EMPTY;
        }
        return from(state.append(record));
      }).pipe(ignoreElements(), tap({ complete: done }));
      return concat(live$, record$);
    });
}
