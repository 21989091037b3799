import { Observable, Subject, timer, type Subscription } from 'rxjs';
import { chunkEventResumeError } from './chunk-event-encoder.js';
import type { SseProtocol } from './server-sent-events-options.js';
import { uiMessageStreamResumeError } from './ui-message-stream-encoder.js';

const COMMENT = 58; // ':' starts an SSE comment (a heartbeat): never buffered, no id

/** What a {@link ResumableStreamEntry} needs from its registry. @internal */
export interface ResumableStreamEntryOptions {
  readonly frames$: Observable<string>;
  readonly protocol: SseProtocol;
  readonly maxBufferedFrames: number;
  readonly ttl: number;
  /** Called once when the entry is gone (expired or disposed). */
  readonly onDispose: () => void;
}

/**
 * One resumable stream: its frames run once (from the first reader on) into a bounded ring
 * buffer and to every connected reader. Frame ids are the positions of the stream's events
 * (1, 2, 3, …), exactly the `id:` lines `toServerSentEvents` writes.
 * @internal
 */
export class ResumableStreamEntry {
  readonly protocol: SseProtocol;
  private readonly live = new Subject<string>();
  private readonly ring: string[] = [];
  private lastId = 0;
  private readers = 0;
  private done = false;
  private disposed = false;
  private upstream: Subscription | undefined;
  private expiry: Subscription | undefined;

  constructor(private readonly options: ResumableStreamEntryOptions) {
    this.protocol = options.protocol;
    this.scheduleExpiry(); // a stream nobody ever reads does not stay forever
  }

  /**
   * The frames after event `after` (0 for all), then the live ones until the stream ends.
   * A resume the buffer cannot serve without a gap gets one error frame instead.
   */
  read(after: number): Observable<string> {
    return new Observable<string>((subscriber) => {
      this.readers++;
      this.expiry?.unsubscribe();
      this.expiry = undefined;
      const oldest = this.lastId - this.ring.length + 1;
      if (this.disposed || after > this.lastId || after < oldest - 1) {
        subscriber.next(this.resumeError(after));
        subscriber.complete();
      } else {
        const capacity = this.options.maxBufferedFrames;
        for (let id = after + 1; id <= this.lastId && !subscriber.closed; id++) {
          subscriber.next(this.ring[(id - 1) % capacity]);
        }
        if (this.done) {
          subscriber.complete();
        } else {
          subscriber.add(this.live.subscribe(subscriber));
          this.connect();
        }
      }
      return () => {
        this.readers--;
        if (this.readers === 0) this.scheduleExpiry();
      };
    });
  }

  /**
   * Ends the stream now: its upstream is unsubscribed; connected readers of a stream that had
   * not finished get one error frame (no id), then complete.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.expiry?.unsubscribe();
    this.upstream?.unsubscribe();
    if (!this.done) this.live.next(this.resumeError(0));
    this.live.complete();
    this.options.onDispose();
  }

  private connect(): void {
    if (this.upstream !== undefined || this.done) return;
    const capacity = this.options.maxBufferedFrames;
    this.upstream = this.options.frames$.subscribe({
      next: (frame) => {
        if (frame.charCodeAt(0) !== COMMENT) {
          this.ring[this.lastId++ % capacity] = frame;
        }
        this.live.next(frame);
      },
      error: (error: unknown) => this.live.error(error),
      complete: () => {
        this.done = true;
        this.live.complete();
      },
    });
  }

  private scheduleExpiry(): void {
    if (this.disposed) return;
    this.expiry = timer(this.options.ttl).subscribe(() => this.dispose());
  }

  private resumeError(after: number): string {
    const message = this.disposed
      ? 'The stream was ended on the server.'
      : after > this.lastId
        ? `Cannot resume after event ${after}: the stream has only sent ${this.lastId} events.`
        : `Cannot resume after event ${after}: events up to ${this.lastId - this.ring.length} are no longer buffered.`;
    return this.protocol === 'ai-sdk-ui'
      ? uiMessageStreamResumeError(message)
      : chunkEventResumeError(message);
  }
}
