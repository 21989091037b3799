import { concat, concatMap, defer, from, ignoreElements, isObservable, map, of, tap } from 'rxjs';
import type {
  ToolCallEvent,
  ToolCallInterceptor,
  ToolCallInvocation,
  ToolCallOutcome,
} from '../../advisor-api/tool-call-interceptor.js';
import type { ToolCall, ToolMessage } from '../../core/message.js';
import type { ToolApprovalDecision } from '../../core/tool.js';
import { DurableRunError } from '../../errors/durable-run-error.js';
import { detachedCopy } from '../run-record-codec.js';
import type { DurableRunState } from './durable-run-state.js';

const isToolMessage = (event: ToolCallEvent): event is ToolMessage =>
  (event as { role?: unknown }).role === 'tool';

/** Whether running a call again is declared safe (an unknown tool runs nothing: safe too). */
const isIdempotent = ({ tool }: ToolCallInvocation): boolean =>
  tool === undefined || tool.idempotent === true;

/**
 * The durable run's tool-call interceptor. Per call of the round that the last model round
 * made:
 * - a recorded outcome answers it, and nothing runs;
 * - a call of a tool that is not idempotent gets a `tool-call-started` record before it
 *   runs; on resume, such a call without an outcome may have run: it goes through the
 *   approval flow (`requiresApproval`), or stops the run (policy `'fail'`), unless a
 *   decision was taken since;
 * - the outcome of a call that is not idempotent (an error result included) is recorded
 *   before the loop sees it; that of an idempotent call rides with the run's next append
 *   (lost at a crash, the call runs again on resume);
 * - decisions the loop takes are recorded (`decided`) and replayed (`knownDecision`),
 *   as are decisions the resuming request brings.
 *
 * A failed append fails the run: it is never an error result the model sees.
 * @internal
 */
export function toolCallRecorder(state: DurableRunState): ToolCallInterceptor {
  const recorder: ToolCallInterceptor = {
    intercept: (invocation, proceed) => intercept(state, invocation, proceed),
    decided: (invocation, decision) => {
      state.appendLater(approvalRecord(state, invocation.call, decision));
    },
  };
  // Only a resume that has decisions to give, or calls that may have run, takes part in
  // approvals: a new run keeps the loop's fast path (no approval step per round).
  if (state.decisions.size > 0 || state.recorded?.hasDecisionsOrUncertainCalls === true) {
    recorder.requiresApproval = (invocation) =>
      state.uncertainToolCalls === 'approve' &&
      !isIdempotent(invocation) &&
      state.recorded?.isUncertain(state.completedRounds, invocation.call.id) === true;
    recorder.knownDecision = (invocation) => knownDecision(state, invocation.call);
  }
  return recorder;
}

function intercept(
  state: DurableRunState,
  invocation: ToolCallInvocation,
  proceed: (call: ToolCall) => ToolCallOutcome,
): ToolCallOutcome {
  const round = state.completedRounds;
  const { call } = invocation;
  const recorded = state.recorded?.outcome(round, call.id);
  if (recorded !== undefined) return recorded;
  const idempotent = isIdempotent(invocation);
  if (
    !idempotent &&
    state.recorded?.isUncertain(round, call.id) === true &&
    !state.decisions.has(call.id)
  ) {
    // Policy 'fail' (with 'approve', the loop asked first and only an approved call gets here).
    if (state.uncertainToolCalls === 'fail') throw uncertain(state, call);
  }
  if (idempotent) {
    // Lost at a crash, it runs again: it rides with the run's next append (the next round's).
    // Started on the spot, as the core starts a call: a result that is there at once is
    // held and passed on with no Observable.
    const outcome = proceed(call);
    if (!isObservable(outcome)) {
      state.appendWithNext({ type: 'tool-outcome', round, message: ownToolMessage(outcome) });
      return outcome;
    }
    return outcome.pipe(
      tap((event) => {
        if (isToolMessage(event))
          state.appendWithNext({ type: 'tool-outcome', round, message: ownToolMessage(event) });
      }),
    );
  }
  const outcome$ = defer(() => {
    const outcome = proceed(call);
    return isObservable(outcome) ? outcome : of(outcome);
  });
  const run$ = outcome$.pipe(
    concatMap((event) =>
      isToolMessage(event)
        ? from(state.append({ type: 'tool-outcome', round, message: ownToolMessage(event) })).pipe(
            map(() => event),
          )
        : of(event),
    ),
  );
  const started$ = defer(() =>
    from(
      state.append({ type: 'tool-call-started', round, toolCallId: call.id, toolName: call.name }),
    ),
  ).pipe(ignoreElements());
  return concat(started$, run$);
}

/** A decision the journal has for a call, or one the resuming request brings (recorded once). */
function knownDecision(state: DurableRunState, call: ToolCall): ToolApprovalDecision | undefined {
  const round = state.completedRounds;
  const recorded = state.recorded?.decision(round, call.id);
  if (recorded !== undefined) return recorded;
  const brought = state.decisions.get(call.id);
  if (brought === undefined) return undefined;
  if (!state.recordedDecisions.has(call.id)) {
    state.recordedDecisions.add(call.id);
    state.appendLater(approvalRecord(state, call, brought));
  }
  return brought;
}

function approvalRecord(state: DurableRunState, call: ToolCall, decision: ToolApprovalDecision) {
  return {
    type: 'approval' as const,
    round: state.completedRounds,
    toolCallId: call.id,
    // The caller's object: the record keeps its own (see APPEND_NOW).
    decision: detachedCopy(decision),
  };
}

/**
 * The record's own copy of a tool message the loop passes on (an advisor after this one
 * may change it; see APPEND_NOW): its members are text, numbers and booleans, so a shallow
 * copy, unless it holds media or an approval (then a deep one).
 */
function ownToolMessage(message: ToolMessage): ToolMessage {
  return message.media === undefined && message.approval === undefined
    ? { ...message }
    : detachedCopy(message);
}

function uncertain(state: DurableRunState, call: ToolCall): DurableRunError {
  return new DurableRunError({
    runId: state.key.runId,
    reason: 'uncertain-tool-call',
    toolName: call.name,
    toolCallId: call.id,
    message:
      `The durable run's call ${JSON.stringify(call.id)} of the tool "${call.name}" started and ` +
      'has no recorded outcome: it may have run, and the tool is not idempotent, so it is not run ' +
      'again. Check whether it ran, then resume with an approval decision for it ' +
      "(or use uncertainToolCalls: 'approve').",
  });
}
