import {
  INVALID_SPAN_CONTEXT,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
} from '@opentelemetry/api';
import { GenAi, RxAttributes } from './gen-ai-conventions.js';

/**
 * The `error.type` of an error: its class name (`ProviderError`, `TypeError`), or
 * `'_OTHER'` for a thrown non-error.
 * @internal
 * @example
 * ```ts
 * errorType(new TypeError('x')); // 'TypeError'
 * ```
 * @param error What the stream failed with.
 * @returns The error type.
 */
export function errorType(error: unknown): string {
  if (error instanceof Error) return error.name || error.constructor.name || 'Error';
  return '_OTHER';
}

/**
 * One span, as the telemetry advisor uses it: ends exactly once (the first of
 * `end`, `fail` and `cancel` wins, later calls do nothing), and never throws, whatever
 * the tracer, its processors or exporters do (a broken one costs the span, never the
 * chat stream).
 * @internal
 * @example
 * ```ts
 * const span = TelemetrySpan.start(tracer, 'chat gpt-4o', { attributes }, parentContext);
 * span.end();
 * ```
 */
export class TelemetrySpan {
  private ended = false;

  private constructor(
    readonly span: Span,
    /** The parent context with this span set: the context of work done under the span. */
    readonly context: Context,
  ) {}

  /**
   * Starts a span; a tracer that throws gives a non-recording span.
   * @param tracer The tracer.
   * @param name The span name.
   * @param options Kind and attributes.
   * @param parent The parent context.
   * @returns The span.
   */
  static start(tracer: Tracer, name: string, options: SpanOptions, parent: Context): TelemetrySpan {
    let span: Span;
    try {
      span = tracer.startSpan(name, options, parent);
    } catch {
      span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    }
    let context: Context;
    try {
      context = trace.setSpan(parent, span);
    } catch {
      context = parent;
    }
    return new TelemetrySpan(span, context);
  }

  /** Whether the span records anything (false for the API's no-op tracer, or sampled out). */
  get isRecording(): boolean {
    try {
      return this.span.isRecording();
    } catch {
      return false;
    }
  }

  /** Whether the span has ended. */
  get isEnded(): boolean {
    return this.ended;
  }

  /**
   * Sets attributes (already attribute values).
   * @param attributes The attributes.
   */
  set(attributes: Attributes): void {
    if (this.ended) return;
    try {
      this.span.setAttributes(attributes);
    } catch {
      // A broken span processor never breaks the stream.
    }
  }

  /**
   * Adds an event.
   * @param name The event name.
   * @param attributes Its attributes.
   */
  event(name: string, attributes?: Attributes): void {
    if (this.ended) return;
    try {
      this.span.addEvent(name, attributes);
    } catch {
      // As above.
    }
  }

  /**
   * Ends the span (status unset: success).
   * @param attributes Set just before it ends.
   */
  end(attributes?: Attributes): void {
    if (this.ended) return;
    if (attributes !== undefined) this.set(attributes);
    this.finish();
  }

  /**
   * Ends the span with status ERROR and `error.type`. The message is not recorded: error
   * messages may carry user data or secrets (see docs/observability.md).
   * @param error What failed.
   * @param attributes Set just before it ends.
   */
  fail(error: unknown, attributes?: Attributes): void {
    if (this.ended) return;
    const type = errorType(error);
    this.set({ ...attributes, [GenAi.ERROR_TYPE]: type });
    try {
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: type });
    } catch {
      // As above.
    }
    this.finish();
  }

  /** Ends the span as cancelled (an unsubscribe before the work finished). */
  cancel(): void {
    if (this.ended) return;
    this.set({ [RxAttributes.CANCELLED]: true });
    this.finish();
  }

  private finish(): void {
    this.ended = true;
    try {
      this.span.end();
    } catch {
      // As above.
    }
  }
}
