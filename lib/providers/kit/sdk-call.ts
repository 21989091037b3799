import { defer, finalize, from, type Observable } from 'rxjs';

/**
 * Makes one SDK request per subscription and emits its result: the single-response
 * sibling of `sdkEventStream` (an embeddings call, a moderation call). The request gets
 * an AbortSignal that fires on teardown, so unsubscribing aborts the HTTP request (and an
 * SDK retry waiting to happen). Errors pass through unchanged.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { sdkCall } from 'rx-advisors/provider-kit';
 *
 * const client = new OpenAI();
 * const embedding$ = sdkCall((signal) =>
 *   client.embeddings.create({ model: 'text-embedding-3-small', input: ['Hi'] }, { signal }),
 * );
 * ```
 * @param request Starts the SDK call with the given signal; it must pass `signal` on.
 * @returns A cold Observable of the one result: one SDK call per subscription.
 */
export function sdkCall<T>(request: (signal: AbortSignal) => PromiseLike<T>): Observable<T> {
  return defer(() => {
    const controller = new AbortController();
    return from(Promise.resolve(request(controller.signal))).pipe(
      // After completion this is a no-op; on unsubscribe it aborts the request.
      finalize(() => controller.abort()),
    );
  });
}
