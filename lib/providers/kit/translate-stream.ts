import { Observable, throwError, timeout } from 'rxjs';
import type { ChatChunk } from '../../core/chat-chunk.js';
import { validateOptions, withDefaults } from '../../core/validate-options.js';
import { ProviderIdleTimeoutError } from '../../errors/provider-idle-timeout-error.js';
import { DEFAULT_IDLE_TIMEOUT, idleTimeoutRule } from './idle-timeout.js';
import type { StreamTranslator } from './stream-translator.js';
import { toProviderError, type ToProviderErrorOptions } from './to-provider-error.js';

/**
 * Options of {@link translateStream}.
 * @example
 * ```ts
 * import { of } from 'rxjs';
 * import type { TranslateStreamOptions } from 'rx-advisors/provider-kit';
 *
 * const options: TranslateStreamOptions<string> = {
 *   events$: of('Hi'),
 *   createTranslator: () => ({
 *     event: (text, sink) => sink.next({ type: 'text-delta', text }),
 *     end: (sink) => sink.next({ type: 'finish', reason: 'stop' }),
 *   }),
 *   errors: { provider: 'echo', secrets: [] },
 *   idleTimeout: 30_000,
 * };
 * ```
 */
export interface TranslateStreamOptions<TEvent> {
  /** The SDK's events, cold (usually `sdkEventStream(...)`). */
  events$: Observable<TEvent>;
  /** Makes the translator of one call (a fresh one per subscription). */
  createTranslator: () => StreamTranslator<TEvent>;
  /** How failures become ProviderErrors: the provider name and the secrets to redact. */
  errors: ToProviderErrorOptions;
  /**
   * Milliseconds the call may go without an event (before the first one, and between
   * two) before it fails with a retryable `ProviderIdleTimeoutError` and `events$` is
   * unsubscribed (which aborts the request); `Infinity` turns it off. Default 120 000
   * ({@link DEFAULT_IDLE_TIMEOUT}).
   */
  idleTimeout?: number;
}

/** The defaults of {@link TranslateStreamOptions}. */
const TRANSLATE_STREAM_DEFAULTS: { readonly idleTimeout: number } = {
  idleTimeout: DEFAULT_IDLE_TIMEOUT,
};

/**
 * Runs a provider's event stream through a fresh translator per subscription. Each event
 * writes its chunks straight to the subscriber (no per-event arrays); every error, the
 * SDK's or the translator's, becomes a ProviderError; a call that sends nothing for
 * `idleTimeout` ms fails with a retryable `ProviderIdleTimeoutError`.
 *
 * ```
 * events$:  -a-------b---c---|
 * result:   -(mh)----t-------(uf|)     m metadata, h/t text, u usage, f finish
 * events$:  -a----------------         (idleTimeout: 5)
 * result:   -(mh)-#                    # ProviderIdleTimeoutError, events$ unsubscribed
 * ```
 *
 * @example
 * ```ts
 * import { from } from 'rxjs';
 * import { translateStream } from 'rx-advisors/provider-kit';
 *
 * const chunks$ = translateStream({
 *   events$: from(['Hel', 'lo']),
 *   createTranslator: () => ({
 *     event: (text, sink) => sink.next({ type: 'text-delta', text }),
 *     end: (sink) => sink.next({ type: 'finish', reason: 'stop' }),
 *   }),
 *   errors: { provider: 'echo', secrets: [] },
 * });
 * chunks$.subscribe((chunk) => console.log(chunk.type));
 * ```
 * @param options The events, the translator factory, the error options and the idle timeout.
 * @returns A cold Observable of chunks that ends with what the translator's `end` writes.
 * @throws InvalidOptionsError when `idleTimeout` is not valid.
 */
export function translateStream<TEvent>(
  options: TranslateStreamOptions<TEvent>,
): Observable<ChatChunk> {
  const { events$, createTranslator, errors, idleTimeout } = withDefaults(
    TRANSLATE_STREAM_DEFAULTS,
    validateOptions(options, { idleTimeout: idleTimeoutRule }, '', {
      known: ['events$', 'createTranslator', 'errors'],
    }),
  );
  const watched$ =
    idleTimeout === Infinity
      ? events$
      : events$.pipe(
          timeout({
            each: idleTimeout,
            with: () =>
              throwError(
                () => new ProviderIdleTimeoutError({ provider: errors.provider, idleTimeout }),
              ),
          }),
        );
  // A `new Observable` because a translator writes a variable number of chunks per event;
  // composing with `concatMap` would allocate an array per event on the hot path.
  return new Observable<ChatChunk>((subscriber) => {
    const translator = createTranslator();
    const fail = (error: unknown): void => subscriber.error(toProviderError(error, errors));
    return watched$.subscribe({
      next: (event) => {
        try {
          translator.event(event, subscriber);
        } catch (error) {
          fail(error);
        }
      },
      error: fail,
      complete: () => {
        try {
          translator.end(subscriber);
          subscriber.complete();
        } catch (error) {
          fail(error);
        }
      },
    });
  });
}
