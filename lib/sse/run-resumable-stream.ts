import { catchError, of, Subscription, type Observable } from 'rxjs';
import { ResumableStreamError } from '../errors/resumable-stream-error.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { isPromiseLike } from './resume-responses.js';
import type { ResumableStreamKey, ResumableStreamStore } from './resumable-stream-store.js';
import type { SseEncoder } from './encoder/sse-encoder.js';
import { withHeartbeat } from './to-server-sent-events.js';

/**
 * Runs a stream's frames into its store: each frame is appended in order (an asynchronous
 * store's append is not awaited; one that fails cancels the stream), the end is marked with
 * `complete`, and the store's `ended` signal (cancelled, replaced, evicted or expired,
 * maybe by another process) unsubscribes the frames, which aborts the model request.
 * @internal
 */
export function runResumableStream(
  store: ResumableStreamStore,
  key: ResumableStreamKey,
  frames$: Observable<string>,
): Subscription {
  const running = new Subscription();
  const cancel = (): void => {
    void Promise.resolve()
      .then(() => store.cancel(key))
      .catch(() => undefined);
  };
  running.add(store.ended(key).subscribe(() => running.unsubscribe()));
  if (running.closed) return running;
  running.add(
    frames$.subscribe({
      next: (frame) => {
        const appended = store.append(key, frame);
        if (isPromiseLike(appended)) appended.then(undefined, cancel);
      },
      complete: () => {
        const completed = store.complete(key);
        if (isPromiseLike(completed)) completed.then(undefined, cancel);
        running.unsubscribe();
      },
    }),
  );
  return running;
}

/**
 * Rejects a key whose owner or id is not a non-empty string.
 * @internal
 */
export function checkStreamKey(key: ResumableStreamKey): void {
  for (const field of ['owner', 'streamId'] as const) {
    const value: unknown = (key as Partial<ResumableStreamKey> | undefined)?.[field];
    if (typeof value !== 'string' || value === '') {
      throw new InvalidOptionsError({ option: field, value, expected: 'a non-empty string' });
    }
  }
}

/**
 * `Last-Event-ID` → the events already seen; `undefined` when it is not an id of ours.
 * @internal
 */
export function parseLastEventId(value: string | number | null | undefined): number | undefined {
  if (value === undefined || value === null || value === '') return 0;
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : undefined;
  return /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/** The resume error text when a store fails (its own message may name hosts). @internal */
export const RESUME_FAILED = 'The stream cannot be read right now.';

/**
 * A store's frames for one connection: its refusals become the protocol's error frame (only
 * the library's own texts go out), with this connection's heartbeats.
 * @internal
 */
export function readStoredFrames(
  store: ResumableStreamStore,
  key: ResumableStreamKey,
  encoder: SseEncoder,
  after: number,
  heartbeat: number | false,
): Observable<string> {
  return store.read(key, after).pipe(
    catchError((error: unknown) =>
      of(
        encoder.resumeError(ResumableStreamError.isInstance(error) ? error.message : RESUME_FAILED),
      ),
    ),
    withHeartbeat(heartbeat),
  );
}
