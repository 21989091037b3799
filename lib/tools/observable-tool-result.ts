import {
  catchError,
  defaultIfEmpty,
  defer,
  finalize,
  map,
  of,
  takeLast,
  takeUntil,
  tap,
  throwError,
  timeout,
  timer,
  type Observable,
} from 'rxjs';
import { filterThen } from '../core/filter-then.js';
import type { ToolCall } from '../core/message.js';
import type { Tool } from '../core/tool.js';
import type { ToolResultContent } from '../core/tool-result-content.js';
import { ToolExecutionError } from '../errors/tool-execution-error.js';
import { ToolTimeoutError } from '../errors/tool-timeout-error.js';
import {
  failure,
  preliminaryResult,
  timeLimitOf,
  toolMessage,
  toResult,
  type ToolCallEvent,
} from './tool-call-results.js';
import type { ToolExecution } from './tool-execution.js';

/**
 * The result of a tool whose `execute` returned an Observable: its last value (`undefined`
 * when it completes empty) as the one `ToolMessage`. With `execution.emitProgress`, every
 * value also goes out, as it comes, as a preliminary `tool-result` chunk (converted like
 * the result): the client sees the tool's progress, the model only the last value.
 *
 * ```
 * output$:  --a--b--c|
 * result:   --a--b--c(m|)     a, b, c: preliminary chunks (emitProgress only); m: the message of c
 * ```
 *
 * The time limit (RxJS time) covers the whole run, progress or not; on it, or on
 * unsubscription before the tool completes, the tool's AbortSignal fires and its
 * subscription ends. A failure (the tool's error, a value the converter rejects, the
 * time limit) is the error result, or the error under policy `throw`; preliminaries sent
 * before it stay sent.
 * @internal
 * @example
 * ```ts
 * observableToolResult(output$, tool, call, execution, () => controller?.abort());
 * ```
 * @param output$ What `execute` returned.
 * @param tool The tool.
 * @param call The call it answers.
 * @param execution How the round's calls run.
 * @param abort Fires the tool's AbortSignal.
 * @returns The preliminaries (if asked for), then the message.
 */
export function observableToolResult(
  output$: Observable<unknown>,
  tool: Tool,
  call: ToolCall,
  execution: ToolExecution,
  abort: () => void,
): Observable<ToolCallEvent> {
  return defer(() => {
    let settled = false;
    const values$ = output$.pipe(
      tap({ complete: () => (settled = true), error: () => (settled = true) }),
      // Unsubscribed (by the caller or by the time limit) before the tool settled.
      finalize(() => {
        if (!settled) abort();
      }),
      catchError((cause: unknown) =>
        throwError(
          () => new ToolExecutionError({ toolName: tool.name, toolCallId: call.id, cause }),
        ),
      ),
    );
    const limit = timeLimitOf(tool, execution);
    let events$: Observable<ToolCallEvent>;
    if (execution.emitProgress === true) {
      events$ = withProgress(values$, tool, call);
      if (limit !== undefined) events$ = within(events$, limit, tool, call);
    } else {
      // One value, at the end: a limit on the first value is a limit on the whole run.
      const last$ = values$.pipe(takeLast(1), defaultIfEmpty(undefined));
      events$ = (
        limit === undefined
          ? last$
          : last$.pipe(
              timeout({ first: limit, with: () => throwError(timedOut(limit, tool, call)) }),
            )
      ).pipe(map((value) => toolMessage(call, toResult(tool, call, value))));
    }
    return events$.pipe(catchError((error: unknown) => of(failure(error, call, execution))));
  });
}

/** Every value as a preliminary result, then the last one as the message. */
function withProgress(
  values$: Observable<unknown>,
  tool: Tool,
  call: ToolCall,
): Observable<ToolCallEvent> {
  return defer(() => {
    let last: ToolResultContent | undefined;
    // filterThen: `concat(…, defer(…))` in one subscription, on every value of a long run.
    return filterThen<ToolCallEvent, ToolCallEvent>(
      values$.pipe(map((value) => preliminaryResult(call, (last = toResult(tool, call, value))))),
      keepAll,
      () => [toolMessage(call, last ?? toResult(tool, call, undefined))],
    );
  });
}

/**
 * `events$`, cut off after `limit` ms with a `ToolTimeoutError`: the tool is unsubscribed
 * (and aborted) first, then the error follows. Unlike `timeout({ first })`, the limit holds
 * for the whole run, not until a first value (a preliminary would otherwise lift it).
 */
function within(
  events$: Observable<ToolCallEvent>,
  limit: number,
  tool: Tool,
  call: ToolCall,
): Observable<ToolCallEvent> {
  return defer(() => {
    let late = false;
    return filterThen<ToolCallEvent, ToolCallEvent>(
      events$.pipe(takeUntil(timer(limit).pipe(tap(() => (late = true))))),
      keepAll,
      () => (late ? throwError(timedOut(limit, tool, call)) : []),
    );
  });
}

const keepAll = (): boolean => true;

/** The error of a tool past its time limit. */
function timedOut(limit: number, tool: Tool, call: ToolCall): () => ToolTimeoutError {
  return () => new ToolTimeoutError({ toolName: tool.name, toolCallId: call.id, timeout: limit });
}
