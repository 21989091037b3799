import type { ChatResponse } from '../core/chat-response.js';
import type { Message } from '../core/message.js';
import { ToolLoopTranscript, type TranscriptMark } from '../core/tool-loop-transcript.js';
import type { RecursionState } from './recursive-advisor.js';

/**
 * The messages a retry adds after the original ones: the tool-loop messages behind the
 * rejected answer (so the model need not call its tools again), the answer, and the
 * user's note on what to change. Loop messages count only when a tool loop below wrote
 * them during this run (after `loopMark`).
 * @internal
 * @param state The attempt that was rejected.
 * @param response Its response.
 * @param note The user message telling the model what to change.
 * @param loopMark The loop transcript's mark when the advisor started.
 * @returns The messages to append to the original request.
 */
export function previousAttemptMessages(
  state: RecursionState,
  response: ChatResponse,
  note: string,
  loopMark: TranscriptMark,
): Message[] {
  const loopMessages = ToolLoopTranscript.of(state.request.context).since(loopMark);
  return [
    ...loopMessages,
    { role: 'assistant', content: response.text },
    { role: 'user', content: note },
  ];
}
