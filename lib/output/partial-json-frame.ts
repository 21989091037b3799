import { dropUnsafeKeys } from '../schema/unsafe-keys.js';

/**
 * An object or an array of streamed JSON still being written, and the member being
 * written into it (`PartialJsonBuilder`).
 * @internal
 */
export interface Frame {
  readonly members: Record<string, unknown> | unknown[];
  readonly isArray: boolean;
  /** The key of the member being written (objects), once it is complete. */
  key: string | undefined;
  /** Complete members (what a preview copies). */
  size: number;
}

/**
 * No value (yet).
 * @internal
 */
export const NONE: unique symbol = Symbol('none');

/**
 * Sets a member as `JSON.parse` with `dropUnsafeKeys` would (never a prototype).
 * @internal
 */
export function assign(target: Record<string, unknown>, key: string, value: unknown): void {
  const kept = dropUnsafeKeys(key, value);
  if (kept === undefined) return;
  target[key] = kept;
}

/**
 * JSON's whitespace.
 * @internal
 */
export function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}
