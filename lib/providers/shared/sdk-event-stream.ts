import { defer, finalize, from, mergeMap, type Observable } from 'rxjs';

/**
 * Opens an SDK streaming call per subscription and emits its events. The call gets an
 * AbortSignal that fires on teardown, so unsubscribing aborts the HTTP request (and an
 * SDK retry waiting to happen). Errors pass through unchanged.
 * @internal
 * @param open Starts the SDK call with the given signal; returns the SDK's stream.
 * @returns A cold Observable of the stream's events.
 */
export function sdkEventStream<TEvent>(
  open: (signal: AbortSignal) => PromiseLike<AsyncIterable<TEvent>>,
): Observable<TEvent> {
  return defer(() => {
    const controller = new AbortController();
    return from(open(controller.signal)).pipe(
      mergeMap((stream) => from(stream)),
      // After completion this is a no-op; on unsubscribe or error it closes the connection.
      finalize(() => controller.abort()),
    );
  });
}
