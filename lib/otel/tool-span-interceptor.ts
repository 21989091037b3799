import { context as otelContext, SpanKind, type Attributes } from '@opentelemetry/api';
import { defer, from, isObservable, type Observable } from 'rxjs';
import { redact } from '../core/redact.js';
import { isPromiseLike } from '../core/is-promise-like.js';
import type { ToolExecuteInvocation } from '../advisor-api/tool-call-interceptor.js';
import type { ToolOutput } from '../core/tool.js';
import { toAttributeValue } from './attribute-value.js';
import type { CallTelemetry } from './call-telemetry.js';
import { GenAi, RxAttributes } from './gen-ai-conventions.js';
import { observeStream } from './observe-stream.js';
import { errorType, TelemetrySpan } from './telemetry-span.js';
import { REDACTION_DEPTH } from './traced-model-call.js';

/**
 * An interceptor for the tool-execution core that runs each tool inside an
 * `execute_tool {name}` span, a child of the model call that asked for it, and makes
 * that span the active context while the tool runs (so what the tool does through
 * instrumented libraries nests under it). A plain value keeps the synchronous fast path;
 * a Promise or an Observable becomes an Observable whose unsubscribe (the call's
 * unsubscribe, the tool's timeout) ends the span as cancelled.
 * @internal
 * @example
 * ```ts
 * CallInterceptors.of(request.context).onToolCall(advisor, { execute: toolSpanInterceptor(call) });
 * ```
 * @param call The call's telemetry.
 * @returns The interceptor.
 */
export function toolSpanInterceptor(
  call: CallTelemetry,
): (invocation: ToolExecuteInvocation, proceed: () => ToolOutput<unknown>) => ToolOutput<unknown> {
  return (invocation, proceed) => {
    const { settings } = call;
    const { tool } = invocation;
    const parent = call.latestModelCall?.context ?? call.span.context;
    const span = TelemetrySpan.start(
      settings.tracer,
      `${GenAi.OPERATION_EXECUTE_TOOL} ${tool.name}`,
      { kind: SpanKind.INTERNAL, attributes: toolAttributes(invocation, call) },
      parent,
    );
    const metricAttributes = call.toolMetricAttributes(tool.name);
    const started = performance.now();
    const succeed = (result: unknown): void => {
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
    const output$: Observable<unknown> = isObservable(output) ? output : defer(() => from(output));
    let last: unknown;
    return observeStream(output$, span.context, () => ({
      next: (value) => (last = value),
      complete: () => succeed(last),
      error: fail,
      cancel: () => span.cancel(),
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
