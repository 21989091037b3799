import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** One timed window: a case's batch, from its clock's start to its end (performance.now). */
interface Window {
  label: string;
  start: number;
  end: number;
  value: number;
}

/** GC pauses that fell inside one case's timed windows. */
export interface GcInClock {
  label: string;
  batches: number;
  minor: number;
  major: number;
  gcMs: number;
  timedMs: number;
  values: number[];
}

/**
 * `BENCH_TRACE_GC=1`: records V8's GC pauses (`PerformanceObserver`, entry type `gc`) and
 * which of them fell inside a timed batch, to show that a batch's own collections stay on
 * its clock (the scavenge that starts a batch is outside it). Off by default (the observer
 * costs an entry per GC).
 */
export class GcTrace {
  private readonly entries: PerformanceEntry[] = [];
  private readonly windows: Window[] = [];
  private readonly observer = new PerformanceObserver((list) => {
    this.entries.push(...list.getEntries());
  });

  constructor() {
    this.observer.observe({ entryTypes: ['gc'] });
  }

  /** Notes a timed batch of `label` (`start`, `end`: `performance.now()`) and its sample. */
  window(label: string, start: number, end: number, value: number): void {
    this.windows.push({ label, start, end, value });
  }

  /** Per label: the batches, the GCs inside them and their pause time; then starts anew. */
  summary(): GcInClock[] {
    const byLabel = new Map<string, GcInClock>();
    for (const { label, start, end, value } of this.windows) {
      let row = byLabel.get(label);
      if (row === undefined) {
        row = { label, batches: 0, minor: 0, major: 0, gcMs: 0, timedMs: 0, values: [] };
        byLabel.set(label, row);
      }
      row.batches++;
      row.values.push(value);
      row.timedMs += end - start;
      for (const entry of this.entries) {
        if (entry.startTime < start || entry.startTime + entry.duration > end) continue;
        const kind = (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MINOR) row.minor++;
        else row.major++;
        row.gcMs += entry.duration;
      }
    }
    this.windows.length = 0;
    this.entries.length = 0;
    return [...byLabel.values()];
  }
}

/** The trace when `BENCH_TRACE_GC=1`, else undefined. */
export const gcTrace = process.env.BENCH_TRACE_GC === '1' ? new GcTrace() : undefined;

/**
 * Prints {@link gcTrace}'s summary to stderr (after a macrotask: the observer's entries are
 * delivered asynchronously), then starts a new one.
 */
export async function printGcTrace(): Promise<void> {
  if (gcTrace === undefined) return;
  await new Promise((resolve) => setTimeout(resolve, 20));
  for (const row of gcTrace.summary()) {
    process.stderr.write(
      `GC in clock, ${row.label}: ${row.batches} batches, ${row.minor} scavenges, ` +
        `${row.major} mark-compact/incremental steps, ${row.gcMs.toFixed(1)} ms of ` +
        `${row.timedMs.toFixed(1)} ms timed (${((100 * row.gcMs) / row.timedMs).toFixed(1)} %); samples ` +
        `${row.values.map((v) => v.toPrecision(3)).join(' ')}\n`,
    );
  }
}
