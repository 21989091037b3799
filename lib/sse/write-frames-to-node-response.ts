import type { ServerResponse } from 'node:http';
import { Subscription, type Observable } from 'rxjs';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';

/** How a frame stream is sent on a Node response. @internal */
export interface NodeSinkOptions {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly maxPendingFrames: number;
}

/** The default bound on frames held back while a client reads slowly. @internal */
export const DEFAULT_MAX_PENDING_FRAMES = 1000;

/**
 * Checks a `maxPendingFrames` option.
 * @internal
 */
export function resolveMaxPendingFrames(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_PENDING_FRAMES;
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidOptionsError({
      option: 'maxPendingFrames',
      value,
      expected: 'a positive integer (frames held back while the client reads slowly)',
    });
  }
  return value;
}

/**
 * Writes frames to a Node response with backpressure:
 * - the headers are sent at once;
 * - when `write()` returns false, later frames are held (at most `maxPendingFrames`) and
 *   written as one batch on `'drain'`; a client that falls further behind is disconnected
 *   and the stream unsubscribed, so no buffer grows without bound;
 * - a `'close'` before the end (the client went away) unsubscribes, which aborts the model
 *   request and running tools upstream.
 * @internal
 */
export function writeFramesToNodeResponse(
  frames$: Observable<string>,
  res: ServerResponse,
  options: NodeSinkOptions,
): Subscription {
  if (res.headersSent) {
    throw new InvalidOptionsError({
      option: 'res',
      value: res,
      expected: 'a response whose headers were not sent yet (the SSE headers are written here)',
    });
  }
  const subscription = new Subscription();
  if (res.destroyed) return subscription; // the client is gone already: start nothing
  res.writeHead(options.status, options.headers);
  res.flushHeaders();
  res.once('close', () => subscription.unsubscribe());

  const { maxPendingFrames } = options;
  let pending: string[] | undefined; // frames held while the socket drains
  let completed = false;
  const onDrain = (): void => {
    const batch = pending!.join('');
    pending = undefined;
    if (batch !== '' && !res.write(batch)) {
      pending = [];
      res.once('drain', onDrain);
    } else if (completed) {
      res.end();
    }
  };
  subscription.add(
    frames$.subscribe({
      next: (frame) => {
        if (subscription.closed) return;
        if (pending !== undefined) {
          if (pending.length < maxPendingFrames) {
            pending.push(frame);
            return;
          }
          subscription.unsubscribe();
          res.destroy();
          return;
        }
        if (!res.write(frame)) {
          pending = [];
          res.once('drain', onDrain);
        }
      },
      // Not destroy(error): that would emit 'error' on the response, which nobody listens to.
      error: () => res.destroy(),
      complete: () => {
        completed = true;
        if (pending === undefined) res.end();
      },
    }),
  );
  return subscription;
}
