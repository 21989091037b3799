import {
  catchError,
  concat,
  defer,
  EMPTY,
  filter,
  map,
  of,
  tap,
  throwError,
  type Observable,
} from 'rxjs';
import type { ChatChunk } from '../core/chat-chunk.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { ResumableStreamError } from '../errors/resumable-stream-error.js';
import type { SseEncoder } from './encoder/sse-encoder.js';
import type {
  MaybePromise,
  ResumableStreamKey,
  ResumableStreamStore,
} from './resumable-stream-store.js';
import type { ServerSentEventsOptions } from './server-sent-events-options.js';
import { RESUME_FAILED } from './run-resumable-stream.js';
import { toServerSentEvents, withHeartbeat } from './to-server-sent-events.js';

/**
 * What lets `ResumableStreams` rebuild a stream its store no longer has (a server restart
 * lost the in-memory store; the process that ran the stream is gone): the `restore` option.
 * Its event ids then carry a cursor after the sequence number (`id: 42.318`): a position in
 * the stream that does not depend on how the lost process cut it into chunks, so a restored
 * stream can start exactly after the client's last event. `durableRunRestorer` from
 * `rx-advisors/run` is the implementation for durable runs (the cursor counts the run's
 * delivery units; the rest is resumed from the run journal).
 *
 * @example
 * ```ts partial
 * import type { ResumableStreamRestorer } from 'rx-advisors/sse';
 * const restorer: ResumableStreamRestorer = {
 *   eventCursor: () => {
 *     let sent = 0;
 *     return () => String(++sent);
 *   },
 *   restore: ({ owner, streamId }, cursor) => replayFrom(owner, streamId, Number(cursor ?? 0)),
 * };
 * ```
 */
export interface ResumableStreamRestorer {
  /**
   * The cursor of one stream, called once per stream: a function from each chunk to the
   * cursor after it (1 to 64 of `A-Z a-z 0-9 _ -`), written into the ids of the chunk's events.
   */
  eventCursor(): (chunk: ChatChunk) => string;
  /**
   * The rest of a stream the store does not have (or has in another incarnation than the
   * client's), after the client's cursor.
   * @param key The owner (from your authentication, never from the client) and the stream id.
   * @param cursor The cursor of the client's last event (untrusted: validate it), or
   *   `undefined` when the client sent no `Last-Event-ID` (send everything).
   * @returns The chunks to send (they are kept under `key` as a new stream), or `undefined`
   *   when there is nothing to restore (the client gets what an unknown stream gets).
   */
  restore(
    key: ResumableStreamKey,
    cursor: string | undefined,
  ): MaybePromise<Observable<ChatChunk> | undefined>;
}

const CURSOR = /^[\w-]{1,64}$/;
const EVENT_ID = /^(\d{1,15})(?:\.([\w-]{1,64}))?$/;

/**
 * A `Last-Event-ID`: the sequence number the store reads after, and the cursor when the id
 * has one; `undefined` when it is not an id of ours. No id at all is `{ seq: 0 }`.
 * @internal
 */
export function parseEventId(
  value: string | number | null | undefined,
): { seq: number; cursor?: string; id: string } | undefined {
  if (value === undefined || value === null || value === '') return { seq: 0, id: '' };
  const text = String(value);
  const match = EVENT_ID.exec(text);
  if (match === null) return undefined;
  const seq = Number(match[1]);
  return match[2] === undefined ? { seq, id: text } : { seq, cursor: match[2], id: text };
}

/**
 * Rejects a `restore` option that is not a {@link ResumableStreamRestorer}.
 * @internal
 */
export function checkRestorer(value: unknown): ResumableStreamRestorer | undefined {
  if (value === undefined) return undefined;
  const members = value as Record<string, unknown> | null;
  if (typeof members?.['eventCursor'] === 'function' && typeof members['restore'] === 'function') {
    return value as ResumableStreamRestorer;
  }
  throw new InvalidOptionsError({
    option: 'restore',
    value,
    expected: 'a ResumableStreamRestorer ({ eventCursor, restore }), e.g. durableRunRestorer()',
  });
}

/**
 * A stream's frames with the restorer's cursor in every event id (`id: 7` → `id: 7.318`).
 * The cursor of a chunk is taken before it is encoded, and encoding is synchronous, so each
 * frame gets the cursor of the chunk it came from (the closing frames: the last one's).
 * @internal
 */
export function framesWithCursors(
  chunks$: Observable<ChatChunk>,
  options: ServerSentEventsOptions,
  restorer: ResumableStreamRestorer,
): Observable<string> {
  return defer(() => {
    const cursorOf = restorer.eventCursor();
    let suffix = '';
    return chunks$.pipe(
      tap((chunk) => {
        const cursor = cursorOf(chunk);
        suffix = CURSOR.test(cursor) ? `.${cursor}` : '';
      }),
      toServerSentEvents({ ...options, heartbeat: false }),
      map((frame) => {
        if (suffix === '' || !frame.startsWith('id: ')) return frame;
        const end = frame.indexOf('\n');
        return `${frame.slice(0, end)}${suffix}${frame.slice(end)}`;
      }),
    );
  });
}

/** Thrown inside a read whose first frame is not the client's last event (never leaves it). */
const OTHER_INCARNATION = new Error('The stream is another incarnation than the client read.');

/** The cursor in a frame's `id:` line (`undefined`: none), or `null` for a frame with no id. */
function frameCursor(frame: string): string | undefined | null {
  if (!frame.startsWith('id: ')) return null;
  return parseEventId(frame.slice(4, frame.indexOf('\n')))?.cursor;
}

/**
 * The frames of a kept stream after the client's last event `id` (sequence number `seq`),
 * for `ResumableStreams` with a restorer. With a cursor in the id the read is checked: it
 * starts one frame earlier and that frame must carry exactly `id`. A stream restored since
 * the client's last event numbers its events anew, so a sequence number alone could point
 * into the wrong incarnation; when the frame differs (or the store never sent that many),
 * the stream is restored after the client's cursor instead. And when the stream goes while
 * it is read (`'not-found'`: on Redis, the instance that ran it died), it is restored after
 * the last event this read sent (the client's own when none), so the client gets the rest
 * on the same connection.
 *
 * ```
 * stored:   -x-b-c|      x: event 4 of another incarnation (the client's id is 4.10)
 * restored:  -r-b|
 * result:   --r-b|
 *
 * stored:   -a-b-#       #: the stream is gone (its producer died); b's id is 6.12
 * restored:      -c-d|   restored after cursor 12
 * result:   -a-b-c-d|
 * ```
 * @internal
 */
export function checkedStoredFrames(
  store: ResumableStreamStore,
  key: ResumableStreamKey,
  encoder: SseEncoder,
  last: { seq: number; id: string; cursor?: string },
  heartbeat: number | false,
  restoreAfter: (cursor: string | undefined) => Observable<string>,
): Observable<string> {
  return defer(() => {
    const check = last.cursor !== undefined;
    let checked = !check;
    // The last event sent: its cursor is read only if the stream goes (no cost per frame).
    let sent: string | undefined;
    const read$ = store.read(key, check ? last.seq - 1 : last.seq).pipe(
      filter((frame) => {
        if (!checked) {
          checked = true;
          if (frame.startsWith(`id: ${last.id}\n`)) return false;
          throw OTHER_INCARNATION;
        }
        sent = frame;
        return true;
      }),
    );
    // Where a restore starts: after the last event sent, or the client's; known only with a
    // cursor (a plain id, or a client at event n without one, cannot be restored after).
    const restoreFrom = (): string | undefined | null => {
      if (sent !== undefined) return frameCursor(sent) ?? null;
      return check || last.seq === 0 ? last.cursor : null;
    };
    // A finished stream that never reached the client's event is another incarnation too.
    const unchecked$ = defer(() => (checked ? EMPTY : throwError(() => OTHER_INCARNATION)));
    return concat(read$, unchecked$).pipe(
      withHeartbeat(heartbeat),
      catchError((error: unknown) => {
        // Without a cursor there is no incarnation to check: an id past the end is an error.
        if (
          error === OTHER_INCARNATION ||
          (check && ResumableStreamError.isInstance(error) && error.reason === 'ahead')
        ) {
          return restoreAfter(last.cursor);
        }
        const gone = ResumableStreamError.isInstance(error) && error.reason === 'not-found';
        const cursor = gone ? restoreFrom() : null;
        if (cursor !== null) return restoreAfter(cursor);
        return throwError(() => error);
      }),
    );
  }).pipe(
    catchError((error: unknown) =>
      of(
        encoder.resumeError(ResumableStreamError.isInstance(error) ? error.message : RESUME_FAILED),
      ),
    ),
  );
}
