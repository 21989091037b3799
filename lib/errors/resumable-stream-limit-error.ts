import { hasErrorMarker, RxAdvisorsError } from './rx-advisors-error.js';

const MARKER = Symbol.for('rx-advisors.error.ResumableStreamLimitError');

/**
 * An owner already keeps `maxStreamsPerOwner` running resumable streams: starting one more
 * is refused, so one client cannot fill the registry and evict everyone else's streams.
 *
 * @example
 * ```ts partial
 * import { ResumableStreamLimitError } from 'rx-advisors/sse';
 *
 * try {
 *   pipeToNodeResponse(chunks$, res, { resumable: { streams, owner: session.id } });
 * } catch (error) {
 *   if (ResumableStreamLimitError.isInstance(error)) res.writeHead(429).end();
 * }
 * ```
 */
export class ResumableStreamLimitError extends RxAdvisorsError {
  /** The owner whose limit was reached. */
  readonly owner: string;
  /** The limit (`maxStreamsPerOwner`). */
  readonly limit: number;

  /** @param options The owner and the limit. */
  constructor(options: { owner: string; limit: number }) {
    super(
      `The owner already has ${options.limit} running resumable streams (maxStreamsPerOwner). ` +
        'Wait for one to finish, cancel one, or raise maxStreamsPerOwner.',
    );
    Object.defineProperty(this, MARKER, { value: true });
    this.owner = options.owner;
    this.limit = options.limit;
  }

  /**
   * Whether `error` is a {@link ResumableStreamLimitError}, even from another copy of the package.
   * @param error Any value.
   * @returns `true` when `error` carries this class's marker.
   */
  static override isInstance(error: unknown): error is ResumableStreamLimitError {
    return hasErrorMarker(error, MARKER);
  }
}
