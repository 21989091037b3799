import { of, throwError, type Observable } from 'rxjs';
import { Rules, validateOptions, withDefaults } from '../core/validate-options.js';
import { ResumableStreamLimitError } from '../errors/resumable-stream-limit-error.js';
import { InMemoryStreamEntry } from './in-memory-stream-entry.js';
import {
  streamNotFound,
  type ResumableStreamInfo,
  type ResumableStreamKey,
  type ResumableStreamStore,
} from './resumable-stream-store.js';

/**
 * Options of {@link InMemoryResumableStreamStore} (also accepted by `new ResumableStreams()`).
 *
 * @example
 * ```ts
 * import { InMemoryResumableStreamStore } from 'rx-advisors/sse';
 * const store = new InMemoryResumableStreamStore({ maxBufferedFrames: 2000, ttl: 5 * 60_000, maxStreams: 500 });
 * ```
 */
export interface InMemoryResumableStreamStoreOptions {
  /** Events kept per stream for clients that reconnect (a ring: the oldest go first). Default 1000. */
  maxBufferedFrames?: number;
  /**
   * The same bound in size: characters (`string.length`) of the events kept per stream; the
   * oldest go first. Default 8388608 (8 Mi).
   */
  maxBufferedBytes?: number;
  /**
   * Milliseconds (RxJS time) a stream lives without a connected client. A running stream keeps
   * running that long for a reconnect, then its model request is aborted; a finished one stays
   * resumable that long. Default 60000.
   */
  ttl?: number;
  /** Streams kept at once, all owners together; starting one more ends the oldest. Default 1000. */
  maxStreams?: number;
  /**
   * Streams kept per owner. Starting one more ends the owner's oldest finished stream; when
   * all of them still run, it fails with a `ResumableStreamLimitError`. Default 10.
   */
  maxStreamsPerOwner?: number;
}

/** The defaults of {@link InMemoryResumableStreamStoreOptions}. @internal */
export const IN_MEMORY_STORE_DEFAULTS = {
  maxBufferedFrames: 1000,
  maxBufferedBytes: 8 * 1024 * 1024,
  ttl: 60_000,
  maxStreams: 1000,
  maxStreamsPerOwner: 10,
} as const satisfies InMemoryResumableStreamStoreOptions;

const RULES = {
  maxBufferedFrames: Rules.integer(1),
  maxBufferedBytes: Rules.integer(1),
  ttl: Rules.custom(
    'a number of milliseconds >= 0',
    (value) => typeof value === 'number' && value >= 0 && value < Infinity,
  ),
  maxStreams: Rules.integer(1),
  maxStreamsPerOwner: Rules.integer(1),
} as const;

/**
 * The default {@link ResumableStreamStore}: bounded, in this process's memory. Streams live
 * in a per-owner map; event frames in a ring buffer per stream, bounded by count and size.
 * Behind several server processes, route an owner's requests to one process (sticky
 * sessions) or use a shared store.
 *
 * @example
 * ```ts
 * import { InMemoryResumableStreamStore, ResumableStreams } from 'rx-advisors/sse';
 * const streams = new ResumableStreams({ store: new InMemoryResumableStreamStore({ ttl: 30_000 }) });
 * ```
 */
export class InMemoryResumableStreamStore implements ResumableStreamStore {
  private readonly owners = new Map<string, Map<string, InMemoryStreamEntry>>();
  /** Every entry, oldest first (eviction order). */
  private readonly entries = new Set<InMemoryStreamEntry>();
  private readonly options: Required<InMemoryResumableStreamStoreOptions>;

  /** @param options Buffer bounds, time to live, streams kept in all and per owner. */
  constructor(options: InMemoryResumableStreamStoreOptions = {}) {
    this.options = withDefaults(IN_MEMORY_STORE_DEFAULTS, validateOptions(options, RULES));
  }

  /** How many streams are kept (running, or finished and still resumable). */
  get size(): number {
    return this.entries.size;
  }

  create(key: ResumableStreamKey, info: ResumableStreamInfo): void {
    const { owner, streamId } = key;
    this.owners.get(owner)?.get(streamId)?.dispose(); // replacing: only the owner reaches its key
    const own = this.owners.get(owner); // read after the dispose, which may drop the owner's map
    const { maxStreamsPerOwner, maxStreams } = this.options;
    if (own !== undefined && own.size >= maxStreamsPerOwner) {
      let oldestFinished: InMemoryStreamEntry | undefined;
      for (const entry of own.values()) {
        if (entry.done) {
          oldestFinished = entry;
          break;
        }
      }
      if (oldestFinished === undefined) {
        throw new ResumableStreamLimitError({ owner, limit: maxStreamsPerOwner });
      }
      oldestFinished.dispose();
    }
    for (const oldest of this.entries) {
      if (this.entries.size < maxStreams) break;
      oldest.dispose();
    }
    const owned = this.owners.get(owner);
    const entry = new InMemoryStreamEntry({
      owner,
      streamId,
      info,
      maxBufferedFrames: this.options.maxBufferedFrames,
      maxBufferedBytes: this.options.maxBufferedBytes,
      ttl: this.options.ttl,
      onDispose: (gone) => this.remove(gone),
    });
    this.entries.add(entry);
    if (owned === undefined) this.owners.set(owner, new Map([[streamId, entry]]));
    else owned.set(streamId, entry);
  }

  get(key: ResumableStreamKey): ResumableStreamInfo | undefined {
    return this.entry(key)?.options.info;
  }

  append(key: ResumableStreamKey, frame: string): void {
    this.entry(key)?.append(frame);
  }

  complete(key: ResumableStreamKey): void {
    this.entry(key)?.complete();
  }

  read(key: ResumableStreamKey, after: number): Observable<string> {
    const entry = this.entry(key);
    if (entry !== undefined) return entry.read(after);
    return throwError(() => streamNotFound(key.streamId));
  }

  cancel(key: ResumableStreamKey): boolean {
    const entry = this.entry(key);
    entry?.dispose();
    return entry !== undefined;
  }

  ended(key: ResumableStreamKey): Observable<void> {
    return this.entry(key)?.ended$ ?? of(undefined);
  }

  clear(): void {
    for (const entry of [...this.entries]) entry.dispose();
  }

  private entry(key: ResumableStreamKey): InMemoryStreamEntry | undefined {
    return this.owners.get(key.owner)?.get(key.streamId);
  }

  private remove(entry: InMemoryStreamEntry): void {
    this.entries.delete(entry);
    const { owner, streamId } = entry.options;
    const own = this.owners.get(owner);
    if (own?.get(streamId) !== entry) return;
    own.delete(streamId);
    if (own.size === 0) this.owners.delete(owner);
  }
}
