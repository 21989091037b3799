import type { ToolResultChunk } from './chat-chunk.js';
import type { MediaPart } from './media-part.js';

/**
 * A tool result with images or files next to its text: what a tool's `resultConverter`
 * may return instead of a string. The loop turns it into a `ToolMessage` with the same
 * `content` and `media`; each adapter maps the media where its provider takes it (see
 * `docs/tool-calling.md`, "Tool results with images and files").
 *
 * @example
 * ```ts
 * import { tool, type ToolResultContent } from 'rx-advisors';
 *
 * const screenshot = tool({
 *   name: 'screenshot',
 *   description: 'A screenshot of the dashboard',
 *   parameters: { type: 'object', properties: {} },
 *   execute: () => ({ png: 'iVBORw0KGgo=' }),
 *   resultConverter: ({ png }): ToolResultContent => ({
 *     content: 'The dashboard, as a PNG screenshot.',
 *     media: [{ mediaType: 'image/png', data: { base64: png } }],
 *   }),
 * });
 * ```
 */
export interface ToolResultContent {
  /** The text the model sees (it may be empty when the media say it all). */
  readonly content: string;
  /** Images and files the model sees with the text, in order. */
  readonly media?: readonly MediaPart[];
  /**
   * For a preliminary result only: a nested agent's chunk (`agentTool`), sent on the
   * preliminary `tool-result` chunk as it is, with no text encoding; the model never sees it.
   */
  readonly agentChunk?: ToolResultChunk['agentChunk'];
}
