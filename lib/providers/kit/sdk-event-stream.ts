import { defer, finalize, from, mergeMap, type Observable } from 'rxjs';

/**
 * Opens an SDK streaming call per subscription and emits its events. The call gets an
 * AbortSignal that fires on teardown (unsubscribe, error, or `translateStream`'s idle
 * timeout), so the HTTP request (and an SDK retry waiting to happen) is aborted. Errors
 * pass through unchanged; `translateStream` turns them into a `ProviderError`.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { sdkEventStream } from 'rx-advisors/provider-kit';
 *
 * const client = new OpenAI();
 * const events$ = sdkEventStream((signal) =>
 *   client.chat.completions.create(
 *     { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true },
 *     { signal },
 *   ),
 * );
 * ```
 * @param open Starts the SDK call with the given signal; returns the SDK's stream (any
 *   async iterable) or a promise of it. It must pass `signal` to the request.
 * @returns A cold Observable of the stream's events: one SDK call per subscription.
 */
export function sdkEventStream<TEvent>(
  open: (signal: AbortSignal) => PromiseLike<AsyncIterable<TEvent>> | AsyncIterable<TEvent>,
): Observable<TEvent> {
  return defer(() => {
    const controller = new AbortController();
    return from(Promise.resolve(open(controller.signal))).pipe(
      mergeMap((stream) => from(stream)),
      // After completion this is a no-op; on unsubscribe or error it closes the connection.
      finalize(() => controller.abort()),
    );
  });
}
