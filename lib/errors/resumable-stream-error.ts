import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.ResumableStreamError');

/**
 * Why a resumable stream cannot be read (any further):
 * - `'not-found'`: no stream of this owner has this id (unknown, expired or cancelled);
 * - `'ended'`: the stream was cancelled, replaced or evicted while it was being read;
 * - `'evicted'`: the events after the client's `Last-Event-ID` are no longer buffered;
 * - `'ahead'`: the `Last-Event-ID` is past the stream's last event;
 * - `'invalid-event-id'`: the `Last-Event-ID` is not an event id of ours.
 *
 * @example
 * ```ts
 * import type { ResumableStreamErrorReason } from 'rx-advisors/sse';
 * const reason: ResumableStreamErrorReason = 'evicted';
 * ```
 */
export type ResumableStreamErrorReason =
  'not-found' | 'ended' | 'evicted' | 'ahead' | 'invalid-event-id';

/**
 * A resumable stream cannot be read (see {@link ResumableStreamErrorReason}). Stores raise it
 * from `read()`; `ResumableStreams` turns it into the protocol's error event (its message is
 * written by the library and safe to send), or HTTP 204 for `'not-found'`.
 *
 * @example
 * ```ts partial
 * import { ResumableStreamError } from 'rx-advisors/sse';
 *
 * streams.resume({ owner, streamId }).subscribe({
 *   error: (e) => ResumableStreamError.isInstance(e) && e.reason === 'not-found' && show('gone'),
 * });
 * ```
 */
export class ResumableStreamError extends RxAdvisorsError {
  /** The stream id. */
  readonly streamId: string;
  /** Why it cannot be read. */
  readonly reason: ResumableStreamErrorReason;

  /** @param options The stream id, the reason and the message (sent to the client). */
  constructor(options: { streamId: string; reason: ResumableStreamErrorReason; message: string }) {
    super(options.message);
    Object.defineProperty(this, MARKER, { value: true });
    this.streamId = options.streamId;
    this.reason = options.reason;
  }

  /**
   * Whether `error` is a {@link ResumableStreamError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ResumableStreamError {
    return hasErrorMarker(error, MARKER);
  }
}
