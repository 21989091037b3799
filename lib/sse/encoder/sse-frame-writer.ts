import type { SseEventSink } from './sse-encoder.js';

/**
 * A heartbeat: an SSE comment line, which every client ignores and which carries no id.
 * @internal
 */
export const HEARTBEAT_FRAME = ': ping\n\n';

/** Where a writer's frames go (an RxJS `Subscriber<string>` fits). @internal */
export interface FrameTarget {
  next(frame: string): void;
}

/**
 * Writes SSE events with consecutive ids (1, 2, 3, …), one string per event.
 * - `write` is the built-in encoders' path: the `data` given must be a single line (JSON text
 *   always is: it escapes CR and LF) and the event line comes from {@link eventLine}.
 * - `event` is the {@link SseEventSink} of custom encoders: any name and data; line breaks in
 *   the data become several `data:` lines, so nothing can end a field or a frame early.
 * @internal
 */
export class SseFrameWriter implements SseEventSink {
  private lastId = 0;

  constructor(private readonly target: FrameTarget) {}

  /**
   * Emits one event.
   * @param eventLine `''` for an unnamed (`message`) event, or a line from {@link eventLine}.
   * @param data One line of data.
   */
  write(eventLine: string, data: string): void {
    this.target.next(`id: ${++this.lastId}\n${eventLine}data: ${data}\n\n`);
  }

  /**
   * Emits an unnamed event whose data is `dataLine` (without its `data: `) + `json` + `}`: a
   * delta part whose last field is `json`, built as one string (one concatenation for the
   * whole frame, as a hand-written server would).
   * @param dataLine `data: ` and the part's JSON up to its last value.
   * @param json The last value, as JSON.
   */
  writeDelta(dataLine: string, json: string): void {
    this.target.next(`id: ${++this.lastId}\n${dataLine}${json}}\n\n`);
  }

  event(name: string, data: string): void {
    const text = String(data);
    this.write(
      eventLine(name),
      LINE_BREAK.test(text) ? text.replace(LINE_BREAKS_OF_DATA, '\ndata: ') : text,
    );
  }
}

const LINE_BREAK = /[\r\n]/;
const LINE_BREAKS_OF_DATA = /\r\n|\r|\n/g;

const KNOWN_TYPES = [
  'text-delta',
  'reasoning-delta',
  'reasoning',
  'tool-call-delta',
  'tool-call',
  'tool-result',
  'usage',
  'metadata',
  'finish',
  'round-start',
  'round-end',
  'retry',
  'done',
  'error',
];
const EVENT_LINES = new Map<string, string>(KNOWN_TYPES.map((type) => [type, `event: ${type}\n`]));
const LINE_BREAKS = /[\r\n]/g;

/**
 * The `event:` line for an event name. Known names come from a table (no allocation on the
 * hot path); any other name has CR and LF removed, so it can never start a field of its own.
 * @internal
 */
export function eventLine(name: string): string {
  if (name === '') return '';
  const known = EVENT_LINES.get(name);
  if (known !== undefined) return known;
  const safe = String(name).replace(LINE_BREAKS, '');
  return safe === '' ? '' : `event: ${safe}\n`;
}

/**
 * A stand-alone frame without an id, for answers outside a stream's numbering (a failed
 * resume).
 * @internal
 */
export function frameWithoutId(eventLine: string, data: string): string {
  return `${eventLine}data: ${data}\n\n`;
}

/** The built-in encoders' way to write: a precomputed event line and one line of data. @internal */
export interface EventLineWriter {
  write(eventLine: string, data: string): void;
  /** See {@link SseFrameWriter.writeDelta}. */
  writeDelta(dataLine: string, json: string): void;
}

const DATA_FIELD = 'data: ';

/**
 * The fast writer behind a sink: the sink itself when it is ours, else an adapter that goes
 * through {@link SseEventSink.event} (which checks the data).
 * @internal
 */
export function eventLineWriter(sink: SseEventSink): EventLineWriter {
  if (sink instanceof SseFrameWriter) return sink;
  const write = (line: string, data: string): void =>
    sink.event(line === '' ? '' : line.slice('event: '.length, -1), data);
  return {
    write,
    writeDelta: (dataLine, json) => write('', `${dataLine.slice(DATA_FIELD.length)}${json}}`),
  };
}
