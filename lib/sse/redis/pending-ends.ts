import type { ResumableStreamKey } from '../resumable-stream-store.js';

/** Milliseconds between two attempts to write the end of a stream Redis did not take. */
const RETRY_MS = 250;

/**
 * The streams whose end could not be written (their append failed because Redis was away,
 * then their cancel did too): each is ended again every few hundred milliseconds until Redis
 * takes it, so readers that resume once Redis is back get the error event at once rather
 * than wait for frames that never come (until the producer key expired).
 * @internal
 */
export class PendingEnds {
  private readonly keys = new Map<string, ResumableStreamKey>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** @param end Ends one stream; a rejection calls {@link add} again. */
  constructor(private readonly end: (key: ResumableStreamKey) => Promise<unknown>) {}

  /** Ends `key` later. */
  add(base: string, key: ResumableStreamKey): void {
    this.keys.set(base, key);
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const keys = [...this.keys.values()];
      this.keys.clear();
      for (const each of keys) void this.end(each).catch(() => undefined);
    }, RETRY_MS);
    this.timer.unref?.();
  }

  /** Forgets `base`: ended, or a new stream under the same key. */
  delete(base: string): void {
    this.keys.delete(base);
  }

  /** Stops retrying. */
  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.keys.clear();
  }
}
