/** The frameworks every workload runs through. */
export type Framework =
  | 'rx-advisors'
  | 'ai-sdk'
  | 'langchain'
  | 'floor-rxjs'
  | 'floor-asyncgen'
  | 'floor-http'
  | 'floor-store';

/** The metrics of `bench/results.json`. */
export type Metric =
  | 'ns-per-chunk'
  | 'us-per-round'
  | 'heap-kb-per-stream'
  | 'rss-kb-per-stream'
  | 'us-to-first-chunk'
  | 'us-per-turn'
  | 'us-per-delta'
  | 'ms-per-answer'
  | 'ms-to-first-chunk'
  | 'cpu-ms-to-first-chunk'
  | 'million-instructions'
  | 'installed-kb'
  | 'dependencies'
  | 'us-cpu-per-chunk'
  | 'ms-latency-p50'
  | 'ms-latency-p99'
  | 'us-per-read'
  | 'us-per-append'
  | 'ms-per-search';

/** One row of `bench/results.json` (the schema of issue 8). */
export interface BenchResult {
  workload: 'W1' | 'W2' | 'W3' | 'W4' | 'W5' | 'W6' | 'W7' | 'W8' | 'W9' | 'W10' | 'W11' | 'RUN';
  params: Record<string, number | string>;
  framework: Framework;
  metric: Metric;
  median: number;
  p25: number;
  p75: number;
}

/** The precomputed text of one streamed answer. */
export interface TextFixture {
  /** The text deltas, about 4 characters each. */
  readonly deltas: readonly string[];
  /** What the deltas concatenate to: every adapter must produce exactly this. */
  readonly text: string;
}

/** A gate that parks streams mid-way (W3). */
export interface Gate {
  /** Resolves when the streams may go on. */
  readonly opened: Promise<void>;
  /** Called by a stream when it reaches the gate. */
  arrive(): void;
}

/** The tool of a W2 run: synchronous (JSON Schema) or asynchronous (zod, a Promise). */
export type W2ToolKind = 'sync' | 'async';

/** How one framework runs each workload. Every method returns the final text it saw. */
export interface BenchAdapter {
  readonly framework: Framework;
  /** What "5 pass-through advisors" is in this framework. */
  readonly passThroughLabel: string;
  /** What the tool loop is in this framework. */
  readonly toolLoopLabel: string;
  /** W1: stream `fixture` then usage through `advisors` pass-throughs; the final text. */
  stream(fixture: TextFixture, advisors: number): Promise<string>;
  /**
   * W2: `rounds` rounds of one trivial tool call, then `fixture` as the final text, streaming.
   * `tool`: `'sync'` (default), a JSON Schema tool that returns `'ok'`; `'async'`, a zod
   * tool whose `execute` returns a Promise of `'ok'` (the realistic case).
   */
  toolLoop(rounds: number, fixture: TextFixture, tool?: W2ToolKind): Promise<string>;
  /**
   * W3: stream `fixture`, parking after `parkAt` deltas until `gate` opens; resolves with
   * the final text once the gate opened and the stream finished.
   */
  parked(fixture: TextFixture, parkAt: number, gate: Gate): Promise<string>;
  /** W3: drop what a test double recorded per call, so the heap counts only the streams. */
  beforeHeapSnapshot?(gate: Gate): void;
  /** W4: one call streaming `fixture`; resolves with the µs from the call to its first text delta. */
  firstChunk(fixture: TextFixture): Promise<number>;
}
