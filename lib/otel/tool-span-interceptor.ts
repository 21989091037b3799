import { context as otelContext, SpanKind, type Attributes } from '@opentelemetry/api';
import { from, isObservable, type Observable } from 'rxjs';
import { redact } from '../core/redact.js';
import { isPromiseLike } from '../core/is-promise-like.js';
import type { ToolExecuteInvocation } from '../advisor-api/tool-call-interceptor.js';
import type { ToolOutput } from '../core/tool.js';
import { toAttributeValue } from './attribute-value.js';
import { CallTelemetry, type RunningTool } from './call-telemetry.js';
import { callTelemetryOf } from './nested-call.js';
import { GenAi, RxAttributes } from './gen-ai-conventions.js';
import { observeStream, type StreamWatcher } from './observe-stream.js';
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
    const run = new ToolSpanRun(call, invocation);
    let output: ToolOutput<unknown>;
    try {
      output = otelContext.with(run.span.context, proceed);
    } catch (error) {
      run.error(error);
      throw error;
    }
    if (!isObservable(output) && !isPromiseLike(output)) {
      run.succeed(output);
      return output;
    }
    const { onAbort } = invocation;
    if (isObservable(output) || onAbort === undefined) {
      const output$: Observable<unknown> = isObservable(output) ? output : from(output);
      return observeStream(output$, run.span.context, () => run);
    }
    // A Promise stays a Promise (the core's fast path for asynchronous tools); the core
    // tells of a cancel (unsubscribe, time limit) through `onAbort`.
    onAbort(() => run.cancel());
    return Promise.resolve(output).then(
      (value) => {
        run.succeed(value);
        return value;
      },
      (error: unknown) => {
        run.error(error);
        throw error;
      },
    );
  };
}

/**
 * One tool execution's span while it runs (the call's `runningTools` entry) and how it
 * ends: the first of `succeed`, `error` and `cancel` wins (a Promise that settles after a
 * cancel records nothing). Also the watcher of an Observable tool's output. One object per
 * tool call, instead of the closures that would share its state.
 */
class ToolSpanRun implements RunningTool, StreamWatcher<unknown> {
  readonly name: string;
  readonly description: string | undefined;
  readonly span: TelemetrySpan;
  claimed = false;
  readonly nested: CallTelemetry[] = [];
  private readonly started: number;
  private open = true;
  /** An Observable tool's latest value. */
  private last: unknown;

  constructor(
    private readonly call: CallTelemetry,
    invocation: ToolExecuteInvocation,
  ) {
    const { settings } = call;
    const { tool } = invocation;
    this.name = tool.name;
    this.description = tool.description;
    const parent = call.latestModelCall?.context ?? call.span.context;
    this.span = TelemetrySpan.start(
      settings.tracer,
      `${GenAi.OPERATION_EXECUTE_TOOL} ${tool.name}`,
      { kind: SpanKind.INTERNAL, attributes: toolAttributes(invocation, call) },
      parent,
    );
    call.runningTools.push(this);
    this.started = performance.now();
  }

  next(value: unknown): void {
    this.last = value;
  }

  complete(): void {
    this.succeed(this.last);
  }

  succeed(result: unknown): void {
    if (!this.end(undefined)) return;
    const { settings } = this.call;
    const attributes: Attributes = {};
    if (settings.recordContent) {
      const value = toAttributeValue(redact(result, REDACTION_DEPTH), settings.maxAttributeLength);
      if (value !== undefined) attributes[GenAi.TOOL_CALL_RESULT] = value;
    }
    this.span.end(attributes);
    settings.metrics.tool(this.seconds(), this.call.toolMetricAttributes(this.name));
  }

  error(error: unknown): void {
    if (!this.end(error)) return;
    this.span.fail(error);
    this.call.settings.metrics.tool(
      this.seconds(),
      this.call.toolMetricAttributes(this.name),
      errorType(error),
    );
  }

  cancel(): void {
    if (!this.end(null)) return;
    this.span.cancel();
  }

  /** Leaves the running tools and ends the nested calls under it; false when already ended. */
  private end(error: unknown): boolean {
    if (!this.open) return false;
    this.open = false;
    const { runningTools } = this.call;
    const index = runningTools.indexOf(this);
    if (index !== -1) runningTools.splice(index, 1);
    if (this.nested.length > 0) CallTelemetry.endNested(this.nested, error);
    return true;
  }

  private seconds(): number {
    return (performance.now() - this.started) / 1000;
  }
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
