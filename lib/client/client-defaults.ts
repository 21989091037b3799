import type { Advisor } from '../advisor-api/advisor.js';
import type { ChatModel } from '../core/chat-model.js';
import type { ChatOptions } from '../core/chat-options.js';
import type { ResolvedMediaLimits } from '../core/media-limits.js';
import type { Tool } from '../core/tool.js';
import type { ToolLookup } from './tool-lookup.js';

/**
 * What a built ChatClient applies to every call.
 * @internal
 */
export interface ClientDefaults {
  readonly model: ChatModel;
  readonly system: string | undefined;
  readonly advisors: readonly Advisor[];
  readonly tools: readonly Tool[];
  readonly options: ChatOptions;
  readonly advisorParams: Readonly<Record<string, unknown>>;
  readonly toolContext: Readonly<Record<string, unknown>>;
  readonly toolLookup: ToolLookup | undefined;
  /** Limits on the inline media of a call's messages. */
  readonly mediaLimits: ResolvedMediaLimits;
}
