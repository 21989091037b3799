import { RedisUnavailableError } from '../../errors/redis-unavailable-error.js';
import type { RedisStreamsClient, RedisStreamsConnection } from './redis-streams-client.js';
import { compareStreamIds, formatStreamId, parseStreamId, type StreamId } from './stream-id.js';

/** Milliseconds frames gather between two reads while they keep coming. */
const BATCH_MS = 5;
/** Milliseconds a new read connection may take to connect before a fresh one is tried. */
const CONNECT_WINDOW_MS = 1000;
/** Milliseconds past its BLOCK time a blocking read may take before its connection is dropped. */
const READ_GRACE_MS = 1000;
/** Milliseconds between two attempts while reads fail. */
const RETRY_PAUSE_MS = 100;

/** One entry of a Redis Stream: its id and its fields as [name, value, …]. @internal */
export type StreamEntry = readonly [id: StreamId, fields: readonly string[]];

/** One reader of one stream key, at its own position. @internal */
export interface StreamReader {
  /** The last entry id this reader has. */
  cursor: StreamId;
  /** Entries after `cursor`, in order. */
  deliver(entries: readonly StreamEntry[]): void;
  /** The connection failed for longer than the store waits. */
  fail(error: unknown): void;
}

/**
 * Every blocking stream read of one process over ONE connection: a loop of
 * `XREAD BLOCK … STREAMS k1 k2 … id1 id2 …` over the keys that have readers, each from the
 * lowest position of its readers; every reader takes the entries after its own position.
 * A new key or a reader behind the others interrupts the blocked read (`CLIENT UNBLOCK`).
 * So 1,000 readers in one process cost one connection, and one read per batch of frames.
 * @internal
 */
export class StreamReadMultiplexer {
  private readonly readers = new Map<string, Set<StreamReader>>();
  private connection: RedisStreamsConnection | undefined;
  private connectionId: string | undefined;
  private looping = false;
  private blocked = false;
  /** Bumped when the keys or positions change; `sent` is what the read in flight covers. */
  private generation = 0;
  private sent = 0;
  private closed = false;

  constructor(
    private readonly client: RedisStreamsClient,
    private readonly blockMs: number,
    private readonly retryMs: number,
  ) {}

  /** Keys with readers (for tests and metrics). */
  get size(): number {
    return this.readers.size;
  }

  /**
   * @returns A function that removes the reader.
   */
  add(key: string, reader: StreamReader): () => void {
    let set = this.readers.get(key);
    const isNew = set === undefined;
    if (set === undefined) this.readers.set(key, (set = new Set()));
    set.add(reader);
    this.generation++;
    if (isNew || compareStreamIds(reader.cursor, this.lowest(key, reader)) < 0) this.interrupt();
    this.loop();
    return () => {
      const own = this.readers.get(key);
      own?.delete(reader);
      if (own?.size === 0) this.readers.delete(key);
    };
  }

  /** Closes the connection; readers left get nothing more. */
  close(): void {
    this.closed = true;
    this.readers.clear();
    const connection = this.connection;
    this.connection = undefined;
    if (connection !== undefined) closeConnection(connection);
  }

  private lowest(key: string, except?: StreamReader): StreamId {
    let low: StreamId | undefined;
    for (const reader of this.readers.get(key) ?? []) {
      if (reader === except) continue;
      if (low === undefined || compareStreamIds(reader.cursor, low) < 0) low = reader.cursor;
    }
    return low ?? [Number.MAX_SAFE_INTEGER, 0];
  }

  /**
   * Unblocks the read in flight so the next one covers the new reader. The UNBLOCK may
   * reach the server before the XREAD it targets: then try again a few times.
   */
  private interrupt(): void {
    const target = this.generation;
    const attempt = async (left: number): Promise<void> => {
      if (!this.blocked || this.sent >= target || this.connectionId === undefined) return;
      const unblocked = await this.client.sendCommand(['CLIENT', 'UNBLOCK', this.connectionId]);
      if (unblocked !== 1 && left > 0) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        await attempt(left - 1);
      }
    };
    void attempt(5).catch(() => undefined);
  }

  private loop(): void {
    if (this.looping || this.closed) return;
    this.looping = true;
    void this.run().finally(() => {
      this.looping = false;
      if (this.readers.size > 0 && !this.closed) this.loop();
    });
  }

  private async run(): Promise<void> {
    let failingSince: number | undefined;
    while (this.readers.size > 0 && !this.closed) {
      const keys = [...this.readers.keys()];
      const ids = keys.map((key) => formatStreamId(this.lowest(key)));
      const started = Date.now();
      let reply: unknown;
      try {
        const connection = await this.connect();
        this.sent = this.generation;
        this.blocked = true;
        const read = ['XREAD', 'COUNT', '1000', 'BLOCK', String(this.blockMs), 'STREAMS'];
        // A blocking read answers within its BLOCK time; one that does not is on a dead
        // connection (a silent outage, a reconnect the client waits for).
        reply = await within(
          connection.sendCommand([...read, ...keys, ...ids]),
          this.blockMs + READ_GRACE_MS,
          'XREAD',
        );
        failingSince = undefined;
      } catch (error) {
        // A fresh connection next time: no stale CLIENT ID, no reconnect back-off of the old
        // one, so reads resume as soon as Redis answers again.
        this.drop();
        failingSince ??= Math.min(Date.now(), started + this.blockMs);
        const waited = Date.now() - failingSince;
        if (waited >= this.retryMs) {
          const failure = new RedisUnavailableError({ command: 'XREAD', waited, cause: error });
          for (const set of this.readers.values()) for (const reader of set) reader.fail(failure);
          this.readers.clear();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
        continue;
      } finally {
        this.blocked = false;
      }
      if (this.dispatch(reply)) {
        // Frames keep coming: let a few milliseconds of them gather, so that one XREAD over
        // every key carries many frames instead of one (Redis pays per key, per call).
        await new Promise((resolve) => setTimeout(resolve, BATCH_MS));
      }
    }
  }

  /** @returns Whether the reply carried entries. */
  private dispatch(reply: unknown): boolean {
    if (!Array.isArray(reply)) return false; // timed out or unblocked
    for (const [key, rawEntries] of reply as [string, [string, string[]][]][]) {
      const entries: StreamEntry[] = rawEntries.map(([id, fields]) => [parseStreamId(id), fields]);
      for (const reader of [...(this.readers.get(key) ?? [])]) {
        const fresh = entries.filter(([id]) => compareStreamIds(id, reader.cursor) > 0);
        if (fresh.length === 0) continue;
        reader.cursor = fresh[fresh.length - 1][0];
        reader.deliver(fresh);
      }
    }
    return reply.length > 0;
  }

  private async connect(): Promise<RedisStreamsConnection> {
    if (this.connection === undefined) {
      const connection = this.client.duplicate();
      connection.on('error', () => undefined); // reported through failed reads
      this.connection = connection;
      await within(connection.connect(), CONNECT_WINDOW_MS, 'connect');
    }
    this.connectionId ??= String(
      await within(this.connection.sendCommand(['CLIENT', 'ID']), CONNECT_WINDOW_MS, 'CLIENT'),
    );
    return this.connection;
  }

  /** Closes the read connection after a failure; the next read opens a new one. */
  private drop(): void {
    this.connectionId = undefined;
    const connection = this.connection;
    this.connection = undefined;
    if (connection !== undefined) closeConnection(connection);
  }
}

/**
 * `promise`, or a {@link RedisUnavailableError} once `ms` passed without its answer.
 * @internal
 */
export function within<T>(promise: Promise<T>, ms: number, command: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisUnavailableError({ command, waited: ms })), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** @internal */
export function closeConnection(connection: RedisStreamsConnection): void {
  try {
    if (connection.destroy !== undefined) connection.destroy();
    else connection.disconnect?.();
  } catch {
    // already closed
  }
}
