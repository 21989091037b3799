import { ResumableStreams } from '../resumable-streams.js';
import type { ResumableStreamsOptions } from '../resumable-streams-options.js';
import { RedisResumableStreamStore } from './redis-resumable-stream-store.js';
import type { RedisResumableStreamStoreOptions } from './redis-resumable-stream-store-options.js';

/**
 * Options of {@link RedisResumableStreams}: the store's, custom encoders, and a restorer
 * (`restore`, `restoreOptions`) as `ResumableStreams` takes them.
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import type { RedisResumableStreamsOptions } from 'rx-advisors/sse/redis';
 * const options: RedisResumableStreamsOptions = {
 *   client: await createClient({ url: process.env.REDIS_URL }).connect(),
 *   ttl: 120_000,
 * };
 * ```
 */
export interface RedisResumableStreamsOptions
  extends
    RedisResumableStreamStoreOptions,
    Pick<ResumableStreamsOptions, 'encoders' | 'restore' | 'restoreOptions'> {}

/**
 * `ResumableStreams` on Redis, for a chat backend behind a load balancer: an answer started
 * on instance A can be resumed on instance B with `Last-Event-ID` (the frames so far, then
 * the live ones), and a cancel sent to B stops the model call running on A. Everything
 * `ResumableStreams` offers (start, resume, cancel, the Node and web adapters) works the
 * same; the streams live in a {@link RedisResumableStreamStore}. With `restore`
 * (`durableRunRestorer` from `rx-advisors/run`), a stream whose instance died mid-run is
 * rebuilt from the run journal by the instance a client resumes on, after the client's
 * `Last-Event-ID` (see docs/durable-runs.md, "On Redis, and judges on replay").
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { RedisResumableStreams } from 'rx-advisors/sse/redis';
 *
 * const client = await createClient({ url: process.env.REDIS_URL }).on('error', console.error).connect();
 * const streams = new RedisResumableStreams({ client, ttl: 60_000 });
 * // in a request handler: streams.start({ owner: userId, streamId }, chunks$) …
 * process.on('SIGTERM', () => void streams.close());
 * // A run whose instance died is resumed from its journal by the next instance asked:
 * // new RedisResumableStreams({ client, restore: durableRunRestorer({ journal, resume }) })
 * ```
 */
export class RedisResumableStreams extends ResumableStreams {
  /** The Redis store behind these streams. */
  declare readonly store: RedisResumableStreamStore;

  /** @param options The Redis client, the store's bounds and timings, encoders, a restorer. */
  constructor(options: RedisResumableStreamsOptions) {
    const { encoders, restore, restoreOptions, ...storeOptions } =
      options ?? ({} as RedisResumableStreamsOptions);
    super({
      store: new RedisResumableStreamStore(storeOptions),
      ...(encoders === undefined ? {} : { encoders }),
      ...(restore === undefined ? {} : { restore }),
      ...(restoreOptions === undefined ? {} : { restoreOptions }),
    });
  }

  /**
   * Ends the streams this instance runs and closes the connections the store opened (not
   * the client you passed).
   * @returns A Promise that resolves once done.
   */
  close(): Promise<void> {
    return this.store.clear();
  }
}
