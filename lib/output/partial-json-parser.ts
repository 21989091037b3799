import { SCHEMA_LIMIT_DEFAULTS } from '../schema/schema-limits.js';
import { PartialJsonBuilder } from './partial-json-builder.js';

/**
 * Returned by {@link PartialJsonParser.push} when there is nothing new to show.
 * @internal
 */
export const NO_VALUE: unique symbol = Symbol('rx-advisors.no-value');

/**
 * Characters of text per member a preview copies: a preview waits until the text grew by
 * `openWidth / CHARS_PER_COPY` since the last one, so copying stays under one member per
 * 8 characters streamed however wide the open arrays grow (W6, docs/performance.md).
 */
const CHARS_PER_COPY = 8;

/**
 * Turns streamed answer text into partial JSON values. A `PartialJsonBuilder` follows the
 * text once and decodes each member when it is complete, so a preview costs what changed
 * (a copy of the objects and arrays still open), not a parse of everything before it: the
 * work per delta stays flat whatever the answer's size. A preview is shown on a delta that
 * changes what it shows (nothing while a key, number or literal is still arriving), as
 * soon as the text grew by 1/8 of a character per member to copy since the last one: on
 * every change while the open arrays are narrow, a few deltas apart when they hold
 * hundreds of members. Previews are as clean as final values: keys that could reach a prototype are
 * dropped, escaped or not; past `maxDepth`, no preview is shown (the final value fails
 * with "nested too deeply"). Complete members are shared between previews: read-only.
 * @internal
 */
export class PartialJsonParser {
  private readonly maxDepth: number;
  private text = '';
  private builder = new PartialJsonBuilder();
  /** A change not shown yet, and the characters fed since the last preview. */
  private pending = false;
  private fedSincePreview = 0;

  /** @param maxDepth The deepest nesting previews are shown for; default 64. */
  constructor(maxDepth: number = SCHEMA_LIMIT_DEFAULTS.maxDepth) {
    this.maxDepth = maxDepth;
  }

  /** Every delta pushed since the last reset. */
  get fullText(): string {
    return this.text;
  }

  /** Forgets everything (a new attempt starts). */
  reset(): void {
    this.text = '';
    this.builder = new PartialJsonBuilder();
    this.pending = false;
    this.fedSincePreview = 0;
  }

  /**
   * Adds a delta.
   * @param delta The next piece of answer text.
   * @returns The partial value when there is a new one, else {@link NO_VALUE}.
   */
  push(delta: string): unknown {
    this.text += delta;
    const builder = this.builder;
    if (builder.done || builder.broken) return NO_VALUE;
    if (builder.feed(delta)) this.pending = true;
    this.fedSincePreview += delta.length;
    if (!this.pending || builder.broken || builder.deepest > this.maxDepth) return NO_VALUE;
    if (!builder.done && this.fedSincePreview * CHARS_PER_COPY < builder.openWidth) {
      return NO_VALUE;
    }
    this.pending = false;
    this.fedSincePreview = 0;
    const value = builder.preview();
    return value === undefined ? NO_VALUE : value;
  }
}
