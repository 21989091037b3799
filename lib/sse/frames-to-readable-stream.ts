import { Subscription, timer, type Observable } from 'rxjs';
import { SlowClientError } from '../errors/slow-client-error.js';
import type { ResolvedSseConnectionOptions } from './sse-connection-options.js';

/**
 * A pull-based byte stream over frames:
 * - nothing is subscribed until the consumer first reads (`highWaterMark: 0`);
 * - a frame that arrives while a read is waiting is handed over at once; frames that arrive
 *   between reads are held and handed over as one batch on the next read;
 * - held frames are bounded by `maxPendingFrames`, `maxPendingBytes` (characters) and
 *   `writeTimeout` (ms without a read while frames wait, also after the end): past any bound
 *   the stream errors with a `SlowClientError` and the source is unsubscribed;
 * - `cancel()` (the client went away) unsubscribes, which aborts the work upstream.
 * @internal
 */
export function framesToReadableStream(
  frames$: Observable<string>,
  options: ResolvedSseConnectionOptions,
): ReadableStream<Uint8Array> {
  const { maxPendingFrames, maxPendingBytes, writeTimeout } = options;
  const encoder = new TextEncoder();
  const subscription = new Subscription();
  const pending: string[] = [];
  let pendingChars = 0;
  let controller: ReadableStreamDefaultController<Uint8Array>;
  let started = false;
  let waiting = false; // a read is waiting for the next frame
  let completed = false;
  let stall: Subscription | undefined;

  const fail = (error: SlowClientError): void => {
    stall?.unsubscribe();
    subscription.unsubscribe();
    pending.length = 0;
    controller.error(error);
  };
  const flush = (): void => {
    stall?.unsubscribe();
    stall = undefined;
    if (pending.length > 0) {
      controller.enqueue(encoder.encode(pending.length === 1 ? pending[0] : pending.join('')));
      pending.length = 0;
      pendingChars = 0;
    }
    if (completed) controller.close();
  };
  const hold = (frame: string): void => {
    pendingChars += frame.length;
    if (pending.length >= maxPendingFrames) {
      fail(new SlowClientError({ limit: 'maxPendingFrames', value: maxPendingFrames }));
    } else if (pendingChars > maxPendingBytes) {
      fail(new SlowClientError({ limit: 'maxPendingBytes', value: maxPendingBytes }));
    } else {
      pending.push(frame);
      // Timers live outside `subscription`: a completed source must not stop the bound.
      stall ??= timer(writeTimeout).subscribe(() =>
        fail(new SlowClientError({ limit: 'writeTimeout', value: writeTimeout })),
      );
    }
  };

  return new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController;
      },
      pull() {
        if (!started) {
          started = true;
          subscription.add(
            frames$.subscribe({
              next: (frame) => {
                if (subscription.closed) return;
                if (waiting) {
                  waiting = false;
                  controller.enqueue(encoder.encode(frame));
                } else {
                  hold(frame);
                }
              },
              error: (error: unknown) => {
                stall?.unsubscribe();
                controller.error(error);
              },
              complete: () => {
                completed = true;
                if (waiting) controller.close();
              },
            }),
          );
          if (subscription.closed) return;
        }
        if (pending.length > 0 || completed) flush();
        else waiting = true;
      },
      cancel() {
        stall?.unsubscribe();
        subscription.unsubscribe();
      },
    },
    { highWaterMark: 0 },
  );
}
