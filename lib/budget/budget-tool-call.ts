import { concat, defer, EMPTY, isObservable, map, of, takeUntil, tap, timer } from 'rxjs';
import type { ToolCallInterceptor } from '../advisor-api/tool-call-interceptor.js';
import type { ToolCall, ToolMessage } from '../core/message.js';
import type { BudgetMeter } from './budget-meter.js';

/**
 * The budget's tool-call interceptor: counts tool calls (nested runs' too), refuses a call
 * once the run is over budget, cancels a running tool when the wall time runs out, and
 * fails the run when a tool (a nested agent) spent past a limit. Under `onExceeded:
 * 'error'` a refusal is the `BudgetExceededError` (it fails the loop, and teardown cancels
 * the round's other tools); under `finish` it is an error result, and the next model call
 * ends the run.
 * @internal
 */
export function budgetToolCall(meter: BudgetMeter): ToolCallInterceptor {
  const { maxWallTime } = meter.options;
  return {
    intercept: (invocation, proceed) => {
      const { call } = invocation;
      if (meter.exceeded === undefined) meter.countToolCall();
      if (!meter.withinBudget()) return refuse(meter, call);
      const remaining = meter.remainingTime();
      if (remaining !== undefined && remaining <= 0) {
        meter.exceed('wallTime', maxWallTime ?? 0);
        return refuse(meter, call);
      }
      const outcome = proceed(call);
      if (!isObservable(outcome) && remaining === undefined) return after(meter, outcome);
      const outcome$ = isObservable(outcome) ? outcome : of(outcome);
      const checked$ = outcome$.pipe(
        map((event) => ('role' in event ? after(meter, event) : event)),
      );
      if (remaining === undefined) return checked$;
      let cut = false;
      const deadline$ = timer(remaining).pipe(
        tap(() => {
          cut = true;
          meter.exceed('wallTime', maxWallTime ?? 0);
        }),
      );
      return concat(
        checked$.pipe(takeUntil(deadline$)),
        defer(() => (cut ? of(refuse(meter, call)) : EMPTY)),
      );
    },
  };
}

/** A finished call: a nested run may have spent past a limit meanwhile. */
function after(meter: BudgetMeter, message: ToolMessage): ToolMessage {
  if (meter.options.onExceeded === 'error' && !meter.withinBudget()) {
    const { exceeded } = meter;
    if (exceeded !== undefined) throw exceeded;
  }
  return message;
}

/** A call the run can no longer afford: the error, or (`finish`) an error result. */
function refuse(meter: BudgetMeter, call: ToolCall): ToolMessage {
  const error = meter.exceeded;
  if (meter.options.onExceeded === 'error' && error !== undefined) throw error;
  return {
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: `Not run: the run's ${error?.limit ?? ''} budget is exceeded.`,
    isError: true,
  };
}
