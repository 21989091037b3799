import { Observable } from 'rxjs';
import type { ChatChunk } from '../../core/chat-chunk.js';
import type { StreamTranslator } from './stream-translator.js';
import { toProviderError, type ToProviderErrorOptions } from './to-provider-error.js';

/** Options of {@link translateStream}. */
export interface TranslateStreamOptions<TEvent> {
  /** The SDK's events, cold. */
  events$: Observable<TEvent>;
  /** Makes the translator of one call (a fresh one per subscription). */
  createTranslator: () => StreamTranslator<TEvent>;
  /** How failures become ProviderErrors. */
  errors: ToProviderErrorOptions;
}

/**
 * Runs a provider's event stream through a fresh translator per subscription. Each event
 * writes its chunks straight to the subscriber (no per-event arrays); every error, the
 * SDK's or the translator's, becomes a ProviderError.
 * @internal
 * @param options The events, the translator factory and the error options.
 * @returns A cold Observable of chunks that ends with a `finish` chunk.
 */
export function translateStream<TEvent>(
  options: TranslateStreamOptions<TEvent>,
): Observable<ChatChunk> {
  const { events$, createTranslator, errors } = options;
  // A `new Observable` because a translator writes a variable number of chunks per event;
  // composing with `concatMap` would allocate an array per event on the hot path.
  return new Observable<ChatChunk>((subscriber) => {
    const translator = createTranslator();
    const fail = (error: unknown): void => subscriber.error(toProviderError(error, errors));
    return events$.subscribe({
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
