/**
 * A Redis Stream entry id `<ms>-<seq>` as two numbers; the store writes `<event>-0` for
 * event frames and `<last>-1` for the end marker.
 * @internal
 */
export type StreamId = readonly [number, number];

/** @internal */
export function parseStreamId(id: string): StreamId {
  const dash = id.indexOf('-');
  return [Number(id.slice(0, dash)), Number(id.slice(dash + 1))];
}

/** @internal */
export function formatStreamId(id: StreamId): string {
  return `${id[0]}-${id[1]}`;
}

/** @internal */
export function compareStreamIds(a: StreamId, b: StreamId): number {
  return a[0] - b[0] || a[1] - b[1];
}
