import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** A span processor that counts starts and ends per span, to prove every span ends exactly once. */
export class OpenSpanTracker implements SpanProcessor {
  readonly started = new Map<string, string>();
  readonly ends = new Map<string, number>();

  onStart(span: Span, _parent: Context): void {
    this.started.set(span.spanContext().spanId, span.name);
  }

  onEnd(span: ReadableSpan): void {
    const id = span.spanContext().spanId;
    this.ends.set(id, (this.ends.get(id) ?? 0) + 1);
  }

  /** Names of spans started but never ended. */
  open(): string[] {
    return [...this.started].filter(([id]) => !this.ends.has(id)).map(([, name]) => name);
  }

  /** Ends counted more than once. */
  endedTwice(): string[] {
    return [...this.ends].filter(([, count]) => count > 1).map(([id]) => this.started.get(id)!);
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
