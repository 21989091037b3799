import type { ServerResponse } from 'node:http';
import { defer, tap, type MonoTypeOperatorFunction } from 'rxjs';
import type { ChatChunk } from '../../lib/index.js';

/**
 * TEST HOOK (the demo's `cutChatResponsesAfterTextDeltas` option; never on in `npm start`):
 * destroys `res` when the `count`-th `text-delta` chunk passes, before that chunk's event is
 * written, the way a network failure or a proxy timeout drops a response mid-answer. The
 * chunks go on: the stream is resumable, and the client resumes it with `Last-Event-ID`.
 * @param res The response to cut (the first one of the stream).
 * @param count Text deltas before the cut (>= 1).
 * @returns An operator passing the chunks through unchanged.
 */
export function cutResponseAfterTextDeltas(
  res: ServerResponse,
  count: number,
): MonoTypeOperatorFunction<ChatChunk> {
  return (chunks$) =>
    defer(() => {
      let seen = 0;
      return chunks$.pipe(
        tap((chunk) => {
          if (chunk.type === 'text-delta' && ++seen === count) res.destroy();
        }),
      );
    });
}
