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
 * Writes SSE events with consecutive ids (1, 2, 3, …), one string per event. The `data`
 * given must be a single line (JSON text always is: it escapes CR and LF), so nothing a
 * model writes can end a field or a frame early.
 * @internal
 */
export class SseFrameWriter {
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
}

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
