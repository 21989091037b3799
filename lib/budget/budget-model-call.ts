import {
  concat,
  defer,
  EMPTY,
  finalize,
  of,
  takeUntil,
  takeWhile,
  tap,
  throwError,
  timer,
} from 'rxjs';
import type { Observable } from 'rxjs';
import type { ModelCallInterceptor } from '../advisor-api/model-call-interceptor.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { BudgetMeter, CallTally } from './budget-meter.js';

/**
 * The budget's model-call interceptor: counts each call as it streams (output estimated
 * from the deltas, replaced by the reported usage) and cuts it off at the chunk that
 * crosses a token or cost limit, or when the wall time runs out; a call the run cannot
 * afford any more is not made. Cutting off unsubscribes from `proceed` (the HTTP request
 * is aborted), then fails the call with the `BudgetExceededError` or, with
 * `onExceeded: 'finish'`, ends it with the unreported usage, the stop reason and a
 * `finish` (`length`).
 *
 * ```
 * proceed:  --a--b--c--d--f|        each delta estimated; c crosses maxOutputTokens
 * result:   --a--b--(c#)            the request unsubscribed at c's frame
 * ```
 * @internal
 */
export function budgetModelCall(meter: BudgetMeter): ModelCallInterceptor {
  const { estimateTokens, maxWallTime } = meter.options;
  return (call, proceed) =>
    defer(() => {
      if (!meter.withinBudget()) return cutOff(meter, undefined);
      const remaining = meter.remainingTime();
      if (remaining !== undefined && remaining <= 0) {
        meter.exceed('wallTime', maxWallTime ?? 0);
        return cutOff(meter, undefined);
      }
      const tally = meter.openCall(call.request);
      const crossed = meter.crossed();
      if (crossed !== undefined) {
        // The request alone would cross the budget: it is not sent.
        tally.retract();
        meter.exceed(crossed[0], crossed[1]);
        return cutOff(meter, undefined);
      }
      let cut = false;
      const count = (chunk: ChatChunk): boolean => {
        switch (chunk.type) {
          case 'text-delta':
          case 'reasoning-delta':
            tally.addOutput(estimateTokens(chunk.text));
            break;
          case 'tool-call-delta':
            tally.addOutput(estimateTokens(chunk.argumentsDelta));
            break;
          case 'usage':
            tally.report(chunk.usage.inputTokens, chunk.usage.outputTokens);
            break;
          case 'metadata':
            if (chunk.model !== undefined) tally.setModel(chunk.model);
            return true;
          case 'finish':
            tally.assertPriced();
            return true;
          default:
            return true;
        }
        if (meter.withinBudget()) return true;
        cut = true;
        return false;
      };
      let body$ = proceed(call.request).pipe(takeWhile(count, true));
      if (remaining !== undefined) {
        const deadline$ = timer(remaining).pipe(
          tap(() => {
            cut = true;
            meter.exceed('wallTime', maxWallTime ?? 0);
          }),
        );
        body$ = body$.pipe(takeUntil(deadline$));
      }
      return concat(
        body$,
        defer(() => (cut ? cutOff(meter, tally) : EMPTY)),
      ).pipe(finalize(() => tally.settle()));
    });
}

/** The end of a call the budget stopped: its error, or (`finish`) what ends it gracefully. */
function cutOff(meter: BudgetMeter, tally: CallTally | undefined): Observable<ChatChunk> {
  const error = meter.exceeded;
  if (meter.options.onExceeded === 'error' && error !== undefined) return throwError(() => error);
  const chunks: ChatChunk[] = [];
  if (tally !== undefined) {
    // What the provider never reported (the call was cut before its usage came).
    const input = tally.reportedInput === undefined ? Math.ceil(tally.input) : 0;
    const output = tally.reportedOutput === undefined ? Math.ceil(tally.output) : 0;
    if (input + output > 0) {
      chunks.push({
        type: 'usage',
        usage: { inputTokens: input, outputTokens: output, totalTokens: input + output },
      });
    }
  }
  const stopReason = meter.stopReason();
  chunks.push(stopReason === undefined ? { type: 'metadata' } : { type: 'metadata', stopReason });
  chunks.push({ type: 'finish', reason: 'length' });
  return of(...chunks);
}
