import { ResumableStreamError } from '../../errors/resumable-stream-error.js';

/** @internal */
export function streamError(
  streamId: string,
  reason: 'ended' | 'evicted' | 'ahead',
  message: string,
): ResumableStreamError {
  return new ResumableStreamError({ streamId, reason, message });
}

/** @internal */
export function ended(streamId: string): ResumableStreamError {
  return streamError(streamId, 'ended', 'The stream was ended on the server.');
}

/** @internal */
export function evicted(streamId: string, after: number): ResumableStreamError {
  return streamError(
    streamId,
    'evicted',
    `Cannot resume after event ${after}: the events after it are no longer buffered.`,
  );
}
