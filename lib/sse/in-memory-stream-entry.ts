import { Observable, Subject, timer, type Subscription } from 'rxjs';
import { ResumableStreamError } from '../errors/resumable-stream-error.js';
import type { ResumableStreamInfo } from './resumable-stream-store.js';

/** What an {@link InMemoryStreamEntry} needs from its store. @internal */
export interface InMemoryStreamEntryOptions {
  readonly owner: string;
  readonly streamId: string;
  readonly info: ResumableStreamInfo;
  readonly maxBufferedFrames: number;
  readonly maxBufferedBytes: number;
  readonly ttl: number;
  /** Called once when the entry is gone (expired, cancelled, replaced or evicted). */
  readonly onDispose: (entry: InMemoryStreamEntry) => void;
}

/**
 * One stream of the in-memory store: its event frames in a ring buffer bounded by count and
 * by size (the oldest go first), and the live frames for connected readers. Event ids are
 * the frames' positions (1, 2, 3, …), exactly the `id:` lines `toServerSentEvents` writes.
 * @internal
 */
export class InMemoryStreamEntry {
  readonly ended$ = new Subject<void>();
  private readonly live = new Subject<string>();
  private readonly ring: (string | undefined)[] = [];
  private firstId = 1; // the oldest event still buffered (firstId > lastId: none)
  private lastId = 0;
  private chars = 0;
  private readers = 0;
  private expiry: Subscription | undefined;
  done = false;
  disposed = false;

  constructor(readonly options: InMemoryStreamEntryOptions) {
    this.scheduleExpiry(); // a stream nobody ever reads does not stay forever
  }

  /**
   * The frames after event `after`, then the live ones until the stream ends; a
   * `ResumableStreamError` when that cannot be served without a gap.
   */
  read(after: number): Observable<string> {
    // Hand-written: the buffered frames go out straight from the ring, where `concat(from(…),
    // live)` would first copy up to `maxBufferedFrames` of them into an array per reconnect;
    // the reader count moves with subscribe and teardown in the same place.
    return new Observable<string>((subscriber) => {
      this.readers++;
      this.expiry?.unsubscribe();
      this.expiry = undefined;
      const failure = this.failure(after);
      if (failure !== undefined) {
        subscriber.error(failure);
      } else {
        const capacity = this.options.maxBufferedFrames;
        for (let id = after + 1; id <= this.lastId && !subscriber.closed; id++) {
          subscriber.next(this.ring[(id - 1) % capacity]!);
        }
        if (this.done) subscriber.complete();
        else subscriber.add(this.live.subscribe(subscriber));
      }
      return () => {
        this.readers--;
        if (this.readers === 0) this.scheduleExpiry();
      };
    });
  }

  append(frame: string): void {
    if (this.done || this.disposed) return;
    const { maxBufferedFrames: capacity, maxBufferedBytes } = this.options;
    const id = ++this.lastId;
    if (id - this.firstId >= capacity) this.evictOldest();
    this.ring[(id - 1) % capacity] = frame;
    this.chars += frame.length;
    // Bounded by size too; the newest frame always stays, so a live reader misses nothing.
    while (this.chars > maxBufferedBytes && this.firstId < id) this.evictOldest();
    this.live.next(frame);
  }

  complete(): void {
    if (this.done || this.disposed) return;
    this.done = true;
    this.live.complete();
  }

  /** Ends the stream now: readers of a running stream fail with `'ended'`. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.expiry?.unsubscribe();
    this.ring.length = 0;
    this.chars = 0;
    if (!this.done) this.live.error(this.error('ended', 'The stream was ended on the server.'));
    this.ended$.next();
    this.ended$.complete();
    this.options.onDispose(this);
  }

  private evictOldest(): void {
    const index = (this.firstId - 1) % this.options.maxBufferedFrames;
    this.chars -= this.ring[index]!.length;
    this.ring[index] = undefined;
    this.firstId++;
  }

  private failure(after: number): ResumableStreamError | undefined {
    if (this.disposed) return this.error('ended', 'The stream was ended on the server.');
    if (after > this.lastId) {
      return this.error(
        'ahead',
        `Cannot resume after event ${after}: the stream has only sent ${this.lastId} events.`,
      );
    }
    if (after < this.firstId - 1) {
      return this.error(
        'evicted',
        `Cannot resume after event ${after}: events up to ${this.firstId - 1} are no longer buffered.`,
      );
    }
    return undefined;
  }

  private error(reason: 'ended' | 'ahead' | 'evicted', message: string): ResumableStreamError {
    return new ResumableStreamError({ streamId: this.options.streamId, reason, message });
  }

  private scheduleExpiry(): void {
    if (this.disposed) return;
    this.expiry = timer(this.options.ttl).subscribe(() => this.dispose());
  }
}
