import type { ChatRequest } from '../core/chat-request.js';
import type { ChatResponse } from '../core/chat-response.js';
import type { Message, ToolCall, ToolMessage } from '../core/message.js';
import type { ToolLoopState, ToolLoopSummary } from './tool-loop-state.js';

/**
 * The hooks of `ToolCallingAdvisor` (its protected methods), as the loop calls them.
 * @internal
 */
export interface ToolLoopHooks {
  beforeRound(request: ChatRequest, state: ToolLoopState): ChatRequest;
  afterRound(response: ChatResponse, state: ToolLoopState): ChatResponse;
  isEligible(response: ChatResponse, state: ToolLoopState): boolean;
  nextRoundMessages(
    request: ChatRequest,
    response: ChatResponse,
    results: readonly ToolMessage[],
    state: ToolLoopState,
  ): readonly Message[];
  toolErrorContent(error: unknown, call: ToolCall, state: ToolLoopState): string;
  finalizeLoop(summary: ToolLoopSummary, state: ToolLoopState): ToolLoopSummary;
}
