import {
  catchError,
  defer,
  EMPTY,
  exhaustMap,
  from,
  interval,
  Observable,
  startWith,
  switchMap,
  throwError,
} from 'rxjs';
import { validateOptions, withDefaults } from '../../core/validate-options.js';
import { ResumableStreamLimitError } from '../../errors/resumable-stream-limit-error.js';
import {
  streamNotFound,
  type ResumableStreamInfo,
  type ResumableStreamKey,
  type ResumableStreamStore,
} from '../resumable-stream-store.js';
import { EndedSignals } from './ended-signals.js';
import {
  REDIS_STORE_DEFAULTS,
  REDIS_STORE_RULES,
  storeTimings,
  type RedisResumableStreamStoreOptions,
} from './redis-resumable-stream-store-options.js';
import {
  APPEND_SCRIPT,
  CANCEL_SCRIPT,
  COMPLETE_SCRIPT,
  CREATE_SCRIPT,
  TOUCH_SCRIPT,
} from './redis-stream-scripts.js';
import { DeadlineClient } from './deadline-client.js';
import { PendingEnds } from './pending-ends.js';
import { runScript } from './run-script.js';
import { ended, evicted, streamError } from './stream-errors.js';
import { streamKeys, type StreamKeys } from './stream-keys.js';
import { StreamReadMultiplexer, type StreamReader } from './stream-read-multiplexer.js';

/**
 * A {@link ResumableStreamStore} on Redis: a stream started on one instance can be resumed,
 * followed and cancelled from any other. Each stream's event frames go to a Redis Stream
 * (entry id = event id), capped by count and size and expiring `ttl` after its last reader;
 * ownership is part of every key, so an owner only ever reaches its own streams. A cancel
 * on any instance publishes on one pub/sub channel, and the instance running the model
 * stops it; heartbeats catch a lost message, a stream nobody reads (expired) and a stream
 * whose instance died. Connections per process: the client you pass, plus two it
 * duplicates (one multiplexes every blocking read of the process, one listens to
 * pub/sub), whatever the number of streams. Every command has a deadline (`readRetry`),
 * whatever the client's offline queue: when Redis is away, an append fails with a
 * `RedisUnavailableError` (the model call stops), readers get the error event, and once
 * Redis answers again the stopped streams are marked ended and new ones work.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { ResumableStreams } from 'rx-advisors/sse';
 * import { RedisResumableStreamStore } from 'rx-advisors/sse/redis';
 *
 * const client = await createClient({ url: process.env.REDIS_URL }).on('error', console.error).connect();
 * const streams = new ResumableStreams({ store: new RedisResumableStreamStore({ client }) });
 * ```
 */
export class RedisResumableStreamStore implements ResumableStreamStore {
  private readonly client: DeadlineClient;
  private readonly options: Required<Omit<RedisResumableStreamStoreOptions, 'client'>>;
  private readonly timings: ReturnType<typeof storeTimings>;
  private readonly channel: string;
  private readonly reads: StreamReadMultiplexer;
  private readonly signals: EndedSignals;
  /** Streams whose `ended` this instance watches: the ones it runs. */
  private readonly producing = new Map<string, ResumableStreamKey>();
  /** Streams whose end could not be written (Redis away): written once Redis answers. */
  private readonly unended = new PendingEnds((key) => this.cancel(key));

  /** @param options The client, key prefix, bounds, ttl and timings. */
  constructor(options: RedisResumableStreamStoreOptions) {
    const { client, ...rest } = withDefaults(
      REDIS_STORE_DEFAULTS,
      validateOptions(options, REDIS_STORE_RULES),
    );
    this.timings = storeTimings(rest);
    this.client = new DeadlineClient(client, this.timings.commandDeadline);
    this.options = rest;
    this.channel = `${rest.keyPrefix}ended`;
    this.reads = new StreamReadMultiplexer(this.client, rest.blockTimeout, rest.readRetry);
    this.signals = new EndedSignals(this.client, this.channel);
  }

  /** Stream keys this process reads (one blocking connection serves them all). */
  get readingKeys(): number {
    return this.reads.size;
  }

  async create(key: ResumableStreamKey, info: ResumableStreamInfo): Promise<void> {
    const k = this.keys(key);
    this.unended.delete(k.base); // a new stream under this key: not the old one's end
    // The first append of this stream must find its script loaded (see `eval`).
    await this.client.sendCommand(['SCRIPT', 'LOAD', APPEND_SCRIPT]);
    const created = await this.eval(
      CREATE_SCRIPT,
      [k.meta, k.frames, k.alive, k.owner, k.producer],
      [
        info.encoder,
        k.id,
        String(this.options.ttl),
        String(this.options.maxStreamsPerOwner),
        String(Date.now()),
        this.channel,
        k.base,
        k.ownerPrefix,
        String(this.timings.lease),
      ],
    );
    if (created !== 1) {
      throw new ResumableStreamLimitError({
        owner: key.owner,
        limit: this.options.maxStreamsPerOwner,
      });
    }
  }

  async get(key: ResumableStreamKey): Promise<ResumableStreamInfo | undefined> {
    const k = this.keys(key);
    const [state, encoder] = (await this.client.sendCommand([
      'HMGET',
      k.meta,
      'state',
      'encoder',
    ])) as (string | null)[];
    if (state === null || state === undefined || state === 'ended' || !encoder) return undefined;
    return { encoder };
  }

  async append(key: ResumableStreamKey, frame: string): Promise<void> {
    const k = this.keys(key);
    try {
      await this.eval(
        APPEND_SCRIPT,
        [k.meta, k.frames],
        [
          frame,
          String(this.options.maxBufferedFrames),
          String(this.options.maxBufferedBytes),
          String(this.options.ttl),
        ],
        false,
      );
    } catch (error) {
      // Redis is gone: stop the model here rather than stream into nothing.
      this.signals.raise(k.base);
      throw error;
    }
  }

  async complete(key: ResumableStreamKey): Promise<void> {
    const k = this.keys(key);
    await this.eval(COMPLETE_SCRIPT, [k.meta, k.frames], [String(this.options.ttl)]);
  }

  read(key: ResumableStreamKey, after: number): Observable<string> {
    const k = this.keys(key);
    return defer(() =>
      from(this.client.sendCommand(['HMGET', k.meta, 'state', 'last', 'first'])),
    ).pipe(
      switchMap((reply) => {
        const [state, last, first] = reply as (string | null)[];
        if (state === null || state === undefined)
          return throwError(() => streamNotFound(key.streamId));
        if (state === 'ended') return throwError(() => ended(key.streamId));
        if (after > Number(last)) {
          return throwError(() =>
            streamError(
              key.streamId,
              'ahead',
              `Cannot resume after event ${after}: the stream has only sent ${last} events.`,
            ),
          );
        }
        if (after < Number(first) - 1) return throwError(() => evicted(key.streamId, after));
        return this.follow(k, key.streamId, after);
      }),
    );
  }

  async cancel(key: ResumableStreamKey): Promise<boolean> {
    const k = this.keys(key);
    let cancelled: unknown;
    try {
      cancelled = await this.eval(
        CANCEL_SCRIPT,
        [k.meta, k.frames, k.alive],
        [this.channel, k.base, String(this.options.ttl)],
      );
    } catch (error) {
      this.unended.add(k.base, key);
      throw error;
    }
    this.unended.delete(k.base);
    if (cancelled === 1) this.signals.raise(k.base);
    return cancelled === 1;
  }

  ended(key: ResumableStreamKey): Observable<void> {
    const k = this.keys(key);
    // Hand-written, but composition (defer + merge + take(1) + finalize) would serve as well:
    // it runs once per stream, not per frame. Left for the store's owner to replace.
    return new Observable<void>((subscriber) => {
      const end = (): void => {
        subscriber.next();
        subscriber.complete();
      };
      this.producing.set(k.base, key);
      subscriber.add(this.signals.on(k.base).subscribe(end));
      subscriber.add(
        this.heartbeat$(k, 'producer').subscribe((state) => {
          if (state === '' || state === 'ended') end();
        }),
      );
      return () => {
        this.producing.delete(k.base);
        this.signals.release(k.base);
      };
    });
  }

  /** Ends the streams this instance runs and closes the two connections it opened. */
  async clear(): Promise<void> {
    const running = [...this.producing.values()];
    await Promise.allSettled(running.map((key) => this.cancel(key)));
    this.unended.close();
    this.reads.close();
    this.signals.close();
    this.client.close();
  }

  /** The frames after `after` from the multiplexed reader, ended by the end marker. */
  private follow(k: StreamKeys, streamId: string, after: number): Observable<string> {
    // Hand-written: it bridges the multiplexed reader's callback API (deliver, fail) to an
    // Observable with completion and errors, which `fromEventPattern` cannot carry.
    return new Observable<string>((subscriber) => {
      let position = after;
      const reader: StreamReader = {
        cursor: [after, 0],
        deliver: (entries) => {
          for (const [[id, seq], fields] of entries) {
            if (subscriber.closed) return;
            if (seq === 1) {
              if (fields[1] === 'done') subscriber.complete();
              // `lost`: its instance died; the stream is gone, as a fresh `get` would say.
              else subscriber.error((fields[1] === 'lost' ? streamNotFound : ended)(streamId));
              return;
            }
            // Trimmed between the check and the read: say so rather than skip frames.
            if (id !== position + 1) return subscriber.error(evicted(streamId, position));
            position = id;
            subscriber.next(fields[1] ?? '');
          }
        },
        fail: (error) => subscriber.error(error),
      };
      subscriber.add(this.reads.add(k.frames, reader));
      subscriber.add(this.signals.on(k.base).subscribe(() => subscriber.error(ended(streamId))));
      subscriber.add(
        this.heartbeat$(k, 'reader').subscribe((state) => {
          if (state === '') subscriber.error(streamNotFound(streamId));
        }),
      );
      return () => this.signals.release(k.base);
    });
  }

  /** Touches the stream now and every heartbeat; failed touches (Redis away) are skipped. */
  private heartbeat$(k: StreamKeys, role: 'reader' | 'producer'): Observable<string> {
    return interval(this.timings.heartbeat).pipe(
      startWith(0),
      exhaustMap(() =>
        from(
          this.eval(
            TOUCH_SCRIPT,
            [k.meta, k.frames, k.alive, k.producer],
            [this.channel, k.base, String(this.options.ttl), role, String(this.timings.lease)],
          ),
        ).pipe(catchError(() => EMPTY)),
      ),
      switchMap((state) => (typeof state === 'string' ? [state] : [])),
    );
  }

  private eval(script: string, keys: string[], args: string[], retry = true): Promise<unknown> {
    return runScript(this.client, script, keys, args, retry);
  }

  private keys(key: ResumableStreamKey): StreamKeys {
    return streamKeys(this.options.keyPrefix, key);
  }
}
