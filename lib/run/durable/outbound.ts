import { Observable, type OperatorFunction } from 'rxjs';
import type { ChatChunk } from '../../core/chat-chunk.js';
import { DirectSubscriber } from '../../core/direct-subscriber.js';
import type { Delivery } from './delivery.js';

/**
 * The durable run's one step per outbound chunk: `see` looks at it (the usage, the finish,
 * a retry), then `delivery` says what of it the subscriber has not seen. One subscriber per
 * chunk, not an operator for each (a `tap`, a `map`, a `filter`), and a `DirectSubscriber`,
 * not a wrapped observer; an error thrown by either is the stream's error.
 * @internal
 * @param delivery The subscription's place in the run's outbound stream.
 * @param see Called with every chunk, before it is passed on or dropped.
 * @returns The operator.
 */
export function outbound(
  delivery: Delivery,
  see: (chunk: ChatChunk) => void,
): OperatorFunction<ChatChunk, ChatChunk> {
  return (source) =>
    new Observable<ChatChunk>((subscriber) =>
      source.subscribe(
        new DirectSubscriber<ChatChunk>({
          next: (chunk) => {
            let out: ChatChunk | undefined;
            try {
              see(chunk);
              out = delivery.pass(chunk);
            } catch (error) {
              subscriber.error(error);
              return;
            }
            if (out !== undefined) subscriber.next(out);
          },
          error: (error: unknown) => subscriber.error(error),
          complete: () => subscriber.complete(),
        }),
      ),
    );
}
