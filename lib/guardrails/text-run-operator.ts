import { Observable, type MonoTypeOperatorFunction, type Subscriber } from 'rxjs';
import type { ChatChunk, TextDeltaChunk } from '../core/chat-chunk.js';

/**
 * What a {@link textRunOperator} does with one subscription's text: it gets every
 * `text-delta` and the end of each text run, and emits on the subscriber itself (the chunk
 * as it is, another chunk, or nothing; or an error).
 * @internal
 */
export interface TextRunHandler {
  /** A `text-delta` chunk: emit what may leave now. */
  text(chunk: TextDeltaChunk): void;
  /** The text run ends (another kind of chunk comes, or the stream completes): release it. */
  end(): void;
}

/**
 * The plumbing shared by the operators that hold back answer text (`guardOutput`,
 * `redactStream`): `text-delta` chunks go to the handler; `usage` and `metadata` pass at once;
 * any other chunk, and completion, first end the text run (the handler releases what it
 * holds) and then pass. A handler that fails the subscriber (a trip) stops everything after
 * it; an exception thrown by a handler fails the stream. State lives in the handler, made per
 * subscription by `open`.
 *
 * Hand-written, not composed: a chunk may release zero, one or two chunks and completion
 * flushes what is held; the composition (`mergeMap` to an array of chunks, then
 * `concat(defer(flush))`) allocates an array and subscribes an inner Observable per chunk.
 * Measured (`npm run bench -- --only=GUARD`, docs/guardrails.md#cost, 2026-12-02, load
 * ~30): PII redaction through this operator 116 / 161 ns per chunk (n = 10,000 / 100,000;
 * 40 / 60 with no guardrail), the same scanner composed that way 558 / 705: composition
 * would add ~440–540 ns per chunk, 4–5× the redaction itself.
 *
 * ```
 * source:  -a-b-u-f|     a, b: text; u: usage; f: finish
 * handler:  t t     e    (t: text(chunk); e: end() before f is passed on)
 * ```
 *
 * @example
 * ```ts
 * // internal: not exported
 * const upperCase = textRunOperator((subscriber) => ({
 *   text: (chunk) => subscriber.next({ type: 'text-delta', text: chunk.text.toUpperCase() }),
 *   end: () => undefined,
 * }));
 * ```
 * @param open Makes the handler of one subscription.
 * @returns The operator.
 * @internal
 */
export function textRunOperator(
  open: (subscriber: Subscriber<ChatChunk>) => TextRunHandler,
): MonoTypeOperatorFunction<ChatChunk> {
  return (source) =>
    new Observable<ChatChunk>((subscriber) => {
      const handler = open(subscriber);
      let inRun = false;
      const endRun = (): boolean => {
        if (!inRun) return true;
        inRun = false;
        handler.end();
        return !subscriber.closed;
      };
      return source.subscribe({
        next: (chunk) => {
          try {
            if (chunk.type === 'text-delta') {
              inRun = true;
              handler.text(chunk);
              return;
            }
            if (chunk.type !== 'usage' && chunk.type !== 'metadata' && !endRun()) return;
            subscriber.next(chunk);
          } catch (error) {
            subscriber.error(error);
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          try {
            if (endRun()) subscriber.complete();
          } catch (error) {
            subscriber.error(error);
          }
        },
      });
    });
}
