import { Subscription, type Observable } from 'rxjs';

/**
 * A pull-based byte stream over frames:
 * - nothing is subscribed until the consumer first reads (`highWaterMark: 0`);
 * - a frame that arrives while a read is waiting is handed over at once; frames that arrive
 *   between reads are held (at most `maxPendingFrames`, else the stream errors and the
 *   source is unsubscribed) and handed over as one batch on the next read;
 * - `cancel()` (the client went away) unsubscribes, which aborts the work upstream.
 * @internal
 */
export function framesToReadableStream(
  frames$: Observable<string>,
  maxPendingFrames: number,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const subscription = new Subscription();
  const pending: string[] = [];
  let controller: ReadableStreamDefaultController<Uint8Array>;
  let started = false;
  let waiting = false; // a read is waiting for the next frame
  let completed = false;

  const flush = (): void => {
    if (pending.length > 0) {
      controller.enqueue(encoder.encode(pending.length === 1 ? pending[0] : pending.join('')));
      pending.length = 0;
    }
    if (completed) controller.close();
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
                } else if (pending.length < maxPendingFrames) {
                  pending.push(frame);
                } else {
                  subscription.unsubscribe();
                  controller.error(
                    new Error(`The client fell more than ${maxPendingFrames} frames behind.`),
                  );
                }
              },
              error: (error: unknown) => controller.error(error),
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
        subscription.unsubscribe();
      },
    },
    { highWaterMark: 0 },
  );
}
