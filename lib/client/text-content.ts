import { Observable, type Subscriber } from 'rxjs';
import type { CallStarter } from './call-response-spec.js';
import { TextDeltaSubscriber } from './text-delta-subscriber.js';

/**
 * `stream().content()`'s Observable: cold, one call per subscription, built with RxJS's
 * public constructor. Its subscribe function is one function shared by every call (RxJS
 * calls it with the Observable as `this`), not a closure made per call: a fresh closure per
 * call cost about 450 instructions per W4 call under callgrind (docs/performance.md,
 * "Issue 32: first chunk (W4), second pass"), the subclass's one field costs nothing.
 * Subscribing starts the call as `defer` would (a throw while building the request or the
 * chain becomes the stream's error, RxJS's `_trySubscribe`), and `content()`'s one
 * subscriber ({@link TextDeltaSubscriber}) is subscribed as it is.
 * @internal
 * @example
 * ```ts
 * new TextContent(promptSpec).subscribe((delta) => process.stdout.write(delta));
 * ```
 */
export class TextContent extends Observable<string> {
  /** @param call The call each subscription starts. */
  constructor(readonly call: CallStarter) {
    super(subscribeCall);
  }
}

/**
 * Every `TextContent`'s subscribe function: RxJS calls it with the Observable as `this`.
 * The text layer is linked to `subscriber` only when the call outlives this function
 * (see `TextDeltaSubscriber`): RxJS adds what this returns to `subscriber`, or runs it at
 * once when `subscriber` was unsubscribed meanwhile.
 */
function subscribeCall(
  this: Observable<string>,
  subscriber: Subscriber<string>,
): TextDeltaSubscriber | undefined {
  const text = new TextDeltaSubscriber(subscriber);
  try {
    (this as TextContent).call.startInto(text);
  } catch (error) {
    // RxJS turns the throw into `subscriber`'s error; what was started is left first.
    text.unsubscribe();
    throw error;
  }
  return text.closed ? undefined : text;
}
