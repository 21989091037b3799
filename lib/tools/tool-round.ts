import type { TextDeltaChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { ChatResponse } from '../core/chat-response.js';
import type { ToolCall, ToolMessage } from '../core/message.js';
import type { Tool } from '../core/tool.js';
import type { ToolApprovalDecision } from './tool-approval.js';

/**
 * A round whose model call asked for tools, on its way to the next round.
 * @internal
 */
export interface ToolRound {
  readonly request: ChatRequest;
  readonly response: ChatResponse;
  readonly calls: readonly ToolCall[];
  readonly offered: ReadonlyMap<string, Tool>;
  readonly returnDirect: boolean;
  /** The round's text held under `preamble: 'drop'`: sent if a stop condition ends the loop here. */
  readonly held?: readonly TextDeltaChunk[] | undefined;
  /** A round paused in an earlier request, resumed with its decisions (no model call now). */
  readonly resumed?: {
    readonly decisions: ReadonlyMap<string, ToolApprovalDecision>;
    readonly answered: ReadonlyMap<string, ToolMessage>;
  };
}
