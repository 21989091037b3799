/** What a {@link PacedTicker} drives: one answer's model output. */
export interface PacedStream {
  /** Text delta `k` (0-based); its text carries `k` and the time it was due, see {@link stampedDelta}. */
  delta(k: number, text: string): void;
  /** After the last delta: the model's end (usage, finish). */
  end(): void;
}

/** A started stream; `stop()` drops it (the client went away). */
export interface PacedHandle {
  stop(): void;
}

interface Entry {
  readonly stream: PacedStream;
  due: number;
  k: number;
  stopped: boolean;
}

/** Options of {@link PacedTicker}. */
export interface PacedTickerOptions {
  /** Milliseconds between two deltas of one stream. */
  interval: number;
  /** Deltas per stream. */
  deltas: number;
  /** Park every stream after this many deltas until `resume()` (memory snapshot); none by default. */
  parkAt?: number;
  /** Called each time a stream parks, with the number parked so far. */
  onPark?: (parked: number) => void;
}

/**
 * The model side of W7: one driver for every open answer, as tokens arriving from a model
 * at a steady pace. Stream `s` gets a delta every `interval` ms from when it started, so
 * streams started at different times are spread over the interval. One 1 ms timer serves
 * all streams (bucketed by their due millisecond), so the driver costs the same whatever
 * framework serves the answer, and a busy event loop delays the deltas, which the
 * latency measure sees: each delta carries the time it was due, not when it left.
 */
export class PacedTicker {
  private readonly buckets: Entry[][];
  private lastMs = Math.floor(performance.now());
  private timer: NodeJS.Timeout | undefined;
  private readonly parked: Entry[] = [];
  private open = 0;

  constructor(private readonly options: PacedTickerOptions) {
    this.buckets = Array.from({ length: options.interval }, () => []);
  }

  /** Deltas per stream. */
  get deltasPerStream(): number {
    return this.options.deltas;
  }

  /** Streams started and not yet ended or stopped. */
  get active(): number {
    return this.open;
  }

  /**
   * Starts a stream: its first delta is due at the next millisecond.
   * @param stream Where the deltas go.
   * @returns A handle to stop it.
   */
  start(stream: PacedStream): PacedHandle {
    if (this.timer === undefined) this.lastMs = Math.floor(performance.now());
    const entry: Entry = { stream, due: this.lastMs + 1, k: 0, stopped: false };
    this.place(entry);
    this.open++;
    if (this.timer === undefined) this.timer = setInterval(this.tick, 1);
    return {
      stop: () => {
        if (entry.stopped) return;
        entry.stopped = true;
        this.open--;
        this.idle();
      },
    };
  }

  /** Lets the parked streams go on, each on its own phase. */
  resume(): void {
    const now = Math.floor(performance.now());
    const { interval } = this.options;
    for (const entry of this.parked.splice(0)) {
      if (entry.due <= now) entry.due += interval * Math.ceil((now + 1 - entry.due) / interval);
      this.place(entry);
    }
  }

  /** Stops the timer (the process ends). */
  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private place(entry: Entry): void {
    this.buckets[entry.due % this.options.interval].push(entry);
  }

  private idle(): void {
    if (this.open === 0) this.close();
  }

  private readonly tick = (): void => {
    const now = Math.floor(performance.now());
    for (let ms = this.lastMs + 1; ms <= now; ms++) this.run(ms);
    this.lastMs = now;
  };

  private run(ms: number): void {
    const { interval, deltas, parkAt } = this.options;
    const bucket = this.buckets[ms % interval];
    const length = bucket.length;
    if (length === 0) return;
    let kept = 0;
    for (let i = 0; i < length; i++) {
      const entry = bucket[i];
      if (entry.stopped) continue;
      if (entry.due !== ms) {
        bucket[kept++] = entry;
        continue;
      }
      entry.stream.delta(entry.k, stampedDelta(entry.k, performance.timeOrigin + ms));
      entry.k++;
      if (entry.stopped) continue; // the write found the client gone
      if (entry.k === deltas) {
        entry.stopped = true;
        this.open--;
        entry.stream.end();
        continue;
      }
      entry.due = ms + interval;
      if (entry.k === parkAt) {
        this.parked.push(entry);
        this.options.onPark?.(this.parked.length);
        continue;
      }
      bucket[kept++] = entry;
    }
    // Entries placed during the loop (none today) sit after `length`: keep them.
    for (let i = length; i < bucket.length; i++) bucket[kept++] = bucket[i];
    bucket.length = kept;
    if (this.open === 0) this.idle();
  }
}

/**
 * The text of delta `k`, due at `due` (ms since the epoch, from `performance.timeOrigin`):
 * `<k>@<due>;`. JSON keeps it as is, so a client finds it in any protocol's frame.
 * @param k The delta's index.
 * @param due When it was due.
 * @returns The delta text.
 */
export function stampedDelta(k: number, due: number): string {
  return `${k}@${due.toFixed(3)};`;
}

/** Finds the stamps `<k>@<due>;` in a text (a frame or several). */
export const STAMP = /(\d+)@(\d+\.\d{3});/g;
