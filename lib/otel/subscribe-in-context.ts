import { context, type Context } from '@opentelemetry/api';
import { Observable } from 'rxjs';

/**
 * `source$`, subscribed with `active` as the active OpenTelemetry context, so that work a
 * cold Observable starts when subscribed (an SDK's HTTP request, a tool's Promise) and
 * what it schedules from there (with the AsyncLocalStorage context manager) runs under
 * the span in `active`. Composition cannot do this: no operator runs the subscribe call
 * inside a callback.
 * @internal
 * @example
 * ```ts
 * subscribeInContext(model.stream(request), span.context).subscribe();
 * ```
 * @param source$ Any Observable.
 * @param active The context to subscribe in.
 * @returns `source$`, subscribed in `active`.
 */
export function subscribeInContext<T>(source$: Observable<T>, active: Context): Observable<T> {
  return new Observable<T>((subscriber) =>
    context.with(active, () => source$.subscribe(subscriber)),
  );
}
