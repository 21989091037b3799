import { Subject, type Observable } from 'rxjs';
import type { RedisStreamsClient, RedisStreamsConnection } from './redis-streams-client.js';
import { closeConnection } from './stream-read-multiplexer.js';

/**
 * The "a stream ended" signals of one process: one pub/sub connection subscribed to one
 * channel, whose messages are stream keys, fanned out to the local subscribers of each
 * key. Signals raised in this process (a failed append) go to the same subjects.
 * Pub/sub is at most once: the store's heartbeat catches a missed message.
 * @internal
 */
export class EndedSignals {
  private readonly subjects = new Map<string, Subject<void>>();
  private connection: RedisStreamsConnection | undefined;
  private subscribing: Promise<unknown> | undefined;

  constructor(
    private readonly client: RedisStreamsClient,
    private readonly channel: string,
  ) {}

  /** Emits (and completes) when `streamKey` ends, in any process. */
  on(streamKey: string): Observable<void> {
    void this.subscribe();
    let subject = this.subjects.get(streamKey);
    if (subject === undefined) this.subjects.set(streamKey, (subject = new Subject<void>()));
    return subject.asObservable();
  }

  /** Raises the signal of `streamKey` in this process. */
  raise(streamKey: string): void {
    const subject = this.subjects.get(streamKey);
    if (subject === undefined) return;
    this.subjects.delete(streamKey);
    subject.next();
    subject.complete();
  }

  /** Drops the subject of a key nobody listens to any more. */
  release(streamKey: string): void {
    const subject = this.subjects.get(streamKey);
    if (subject !== undefined && !subject.observed) this.subjects.delete(streamKey);
  }

  /** Closes the pub/sub connection. */
  close(): void {
    for (const key of [...this.subjects.keys()]) this.raise(key);
    const connection = this.connection;
    this.connection = undefined;
    if (connection !== undefined) closeConnection(connection);
  }

  private subscribe(): Promise<unknown> {
    this.subscribing ??= (async () => {
      const connection = this.client.duplicate();
      connection.on('error', () => undefined); // node-redis resubscribes after a reconnect
      this.connection = connection;
      await connection.connect();
      await connection.subscribe(this.channel, (streamKey) => this.raise(streamKey));
    })().catch(() => {
      this.subscribing = undefined; // the heartbeat still ends streams; try again next time
    });
    return this.subscribing;
  }
}
