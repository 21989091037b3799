import { context as otelContext, SpanKind, type Attributes } from '@opentelemetry/api';
import { defer, from, isObservable, type Observable } from 'rxjs';
import { redact } from '../core/redact.js';
import { isPromiseLike } from '../core/is-promise-like.js';
import type { ToolExecuteInvocation } from '../advisor-api/tool-call-interceptor.js';
import type { ToolOutput } from '../core/tool.js';
import { toAttributeValue } from './attribute-value.js';
import { CallTelemetry, type RunningTool } from './call-telemetry.js';
import { callTelemetryOf } from './nested-call.js';
import { GenAi, RxAttributes } from './gen-ai-conventions.js';
import { observeStream } from './observe-stream.js';
import { errorType, TelemetrySpan } from './telemetry-span.js';
import { REDACTION_DEPTH } from './traced-model-call.js';

/**
 * An interceptor for the tool-execution core that runs each tool inside an
 * `execute_tool {name}` span, a child of the model call that asked for it, and makes
 * that span the active context while the tool runs (so what the tool does through
 * instrumented libraries nests under it). A plain value keeps the synchronous fast path,
 * a Promise stays a Promise (the core's fast path for asynchronous tools; the core's
 * `onAbort` ends the span as cancelled on the call's unsubscribe or the tool's timeout),
 * and an Observable is observed (its unsubscribe ends the span as cancelled). Registered with `inherit`:
 * the tools of a nested call with no `OpenTelemetryAdvisor` of its own are traced too
 * (under that call's `invoke_agent` span); a nested call with its own advisor is left to
 * it. While a tool runs, its span is where a nested call it starts (an agent tool's)
 * finds its parent; the `invoke_agent` spans of nested calls traced without an advisor of
 * their own end with it.
 * @internal
 * @example
 * ```ts
 * CallInterceptors.of(request.context).onToolCall(advisor, { execute: toolSpanInterceptor(call) });
 * ```
 * @param root The telemetry of the call whose advisor registers it.
 * @returns The interceptor.
 */
export function toolSpanInterceptor(
  root: CallTelemetry,
): (invocation: ToolExecuteInvocation, proceed: () => ToolOutput<unknown>) => ToolOutput<unknown> {
  return (invocation, proceed) => {
    const { callContext } = invocation.context;
    // Inherited by nested calls: only the calls this advisor traces (its own, and nested
    // ones with no advisor of their own); the others' own advisor traces them.
    const call = callContext === undefined ? root : callTelemetryOf(callContext);
    if (call === undefined || call.root !== root) return proceed();
    const { settings } = call;
    const { tool } = invocation;
    const parent = call.latestModelCall?.context ?? call.span.context;
    const span = TelemetrySpan.start(
      settings.tracer,
      `${GenAi.OPERATION_EXECUTE_TOOL} ${tool.name}`,
      { kind: SpanKind.INTERNAL, attributes: toolAttributes(invocation, call) },
      parent,
    );
    const running: RunningTool = {
      name: tool.name,
      description: tool.description,
      span,
      claimed: false,
      nested: [],
    };
    call.runningTools.push(running);
    const done = (error: unknown): void => {
      const index = call.runningTools.indexOf(running);
      if (index !== -1) call.runningTools.splice(index, 1);
      if (running.nested.length > 0) CallTelemetry.endNested(running.nested, error);
    };
    const metricAttributes = call.toolMetricAttributes(tool.name);
    const started = performance.now();
    const succeed = (result: unknown): void => {
      done(undefined);
      const attributes: Attributes = {};
      if (settings.recordContent) {
        const value = toAttributeValue(
          redact(result, REDACTION_DEPTH),
          settings.maxAttributeLength,
        );
        if (value !== undefined) attributes[GenAi.TOOL_CALL_RESULT] = value;
      }
      span.end(attributes);
      settings.metrics.tool((performance.now() - started) / 1000, metricAttributes);
    };
    const fail = (error: unknown): void => {
      done(error);
      span.fail(error);
      settings.metrics.tool(
        (performance.now() - started) / 1000,
        metricAttributes,
        errorType(error),
      );
    };
    let output: ToolOutput<unknown>;
    try {
      output = otelContext.with(span.context, proceed);
    } catch (error) {
      fail(error);
      throw error;
    }
    if (!isObservable(output) && !isPromiseLike(output)) {
      succeed(output);
      return output;
    }
    const { onAbort } = invocation;
    if (!isObservable(output) && onAbort !== undefined) {
      // A Promise stays a Promise (the core's fast path for asynchronous tools); the core
      // tells of a cancel (unsubscribe, time limit) through `onAbort`.
      let open = true;
      onAbort(() => {
        if (!open) return;
        open = false;
        done(null);
        span.cancel();
      });
      return Promise.resolve(output).then(
        (value) => {
          if (open) {
            open = false;
            succeed(value);
          }
          return value;
        },
        (error: unknown) => {
          if (open) {
            open = false;
            fail(error);
          }
          throw error;
        },
      );
    }
    const output$: Observable<unknown> = isObservable(output) ? output : defer(() => from(output));
    let last: unknown;
    return observeStream(output$, span.context, () => ({
      next: (value) => (last = value),
      complete: () => succeed(last),
      error: fail,
      cancel: () => {
        done(null);
        span.cancel();
      },
    }));
  };
}

function toolAttributes(invocation: ToolExecuteInvocation, call: CallTelemetry): Attributes {
  const { tool, context } = invocation;
  const attributes: Attributes = {
    [GenAi.OPERATION_NAME]: GenAi.OPERATION_EXECUTE_TOOL,
    [GenAi.TOOL_NAME]: tool.name,
    [GenAi.TOOL_TYPE]: 'function',
    [GenAi.TOOL_CALL_ID]: invocation.call.id,
    [RxAttributes.ROUND]: context.round,
  };
  const { settings } = call;
  const description = toAttributeValue(tool.description, settings.maxAttributeLength);
  if (description !== undefined) attributes[GenAi.TOOL_DESCRIPTION] = description;
  if (settings.recordContent) {
    const args = toAttributeValue(
      redact(invocation.args, REDACTION_DEPTH),
      settings.maxAttributeLength,
    );
    if (args !== undefined) attributes[GenAi.TOOL_CALL_ARGUMENTS] = args;
  }
  return attributes;
}
