import type { ServerResponse } from 'node:http';
import { Subscription, timer, type Observable } from 'rxjs';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import type { ResolvedSseConnectionOptions } from './sse-connection-options.js';

/** How a frame stream is sent on a Node response. @internal */
export interface NodeSinkOptions extends ResolvedSseConnectionOptions {
  readonly status: number;
  readonly headers: Record<string, string>;
}

/**
 * Writes frames to a Node response with backpressure:
 * - the headers are sent at once (with the frames written at subscription, if any);
 * - when `write()` returns false, later frames are held and written as one batch on
 *   `'drain'`; a client more than `maxPendingFrames` frames or `maxPendingBytes` characters
 *   behind, or whose socket stays unwritable for `writeTimeout` ms (also after the end was
 *   written), is disconnected and the stream unsubscribed, so nothing is held without bound;
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
  res.once('close', () => subscription.unsubscribe());

  const { maxPendingFrames, maxPendingBytes, writeTimeout } = options;
  let pending: string[] | undefined; // frames held while the socket drains
  let pendingChars = 0;
  let completed = false;
  let wrote = false; // a frame or the end went to the response
  let stall: Subscription | undefined; // ends a connection that stays unwritable
  // Not destroy(error): that would emit 'error' on the response, which nobody listens to.
  const disconnect = (): void => {
    subscription.unsubscribe();
    res.destroy();
  };
  const watchStall = (): void => {
    stall = timer(writeTimeout).subscribe(disconnect);
    subscription.add(stall);
  };
  const endStall = (): void => {
    if (stall === undefined) return;
    stall.unsubscribe();
    subscription.remove(stall);
    stall = undefined;
  };
  const waitForDrain = (): void => {
    pending = [];
    pendingChars = 0;
    res.once('drain', onDrain);
    watchStall();
  };
  const end = (): void => {
    wrote = true;
    res.end();
    // The last bytes may still wait for a client that never reads: bound that too.
    if (!res.writableFinished && !subscription.closed) {
      watchStall();
      res.once('finish', endStall);
    }
  };
  const onDrain = (): void => {
    endStall();
    const batch = pending!.join('');
    pending = undefined;
    if (batch !== '' && !res.write(batch)) waitForDrain();
    else if (completed) end();
  };
  subscription.add(
    frames$.subscribe({
      next: (frame) => {
        if (subscription.closed) return;
        if (pending === undefined) {
          wrote = true;
          if (!res.write(frame)) waitForDrain();
          return;
        }
        pendingChars += frame.length;
        if (pending.length < maxPendingFrames && pendingChars <= maxPendingBytes) {
          pending.push(frame);
        } else {
          disconnect();
        }
      },
      error: () => res.destroy(),
      complete: () => {
        completed = true;
        if (pending === undefined) end();
      },
    }),
  );
  // The frames written at subscription (a protocol's opening events) went out with the
  // headers, in one packet; without any, the headers go now, alone.
  if (!wrote && !res.destroyed) res.flushHeaders();
  return subscription;
}
