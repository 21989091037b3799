import { defer, filter, map, type OperatorFunction } from 'rxjs';
import type { ChatChunk, DataChunk, FinishReason } from '../core/chat-chunk.js';
import { agentChunkOf } from './agent-chunk.js';

/**
 * What a `data` chunk named `agent-progress` carries: one nested agent's progress so far,
 * for a UI to render as it grows. Sent with the id `<toolCallId>:<path>`, so the AI SDK's
 * `useChat` replaces the part in place (data part reconciliation) instead of adding one per
 * chunk.
 * @example
 * ```ts
 * import type { AgentProgress } from 'rx-advisors';
 * const progress: AgentProgress = {
 *   toolCallId: 'call_1',
 *   path: ['research'],
 *   text: 'Paris has',
 *   toolCalls: ['search'],
 *   finished: undefined,
 * };
 * ```
 */
export interface AgentProgress {
  /** The top-level tool call the agent answers (the parent's `tool-research` part). */
  readonly toolCallId: string;
  /** The agents, outermost first; the last one is the one whose progress this is. */
  readonly path: readonly string[];
  /** Its text so far. */
  readonly text: string;
  /** The tools it called so far, by name, in order. */
  readonly toolCalls: readonly string[];
  /** How it finished, once it has. */
  readonly finished: FinishReason | undefined;
}

/**
 * Turns the nested agents' chunks of a stream (the preliminary tool results `agentTool`
 * sends with the parent's `emitToolEvents`) into one `data` chunk per change, named
 * `agent-progress` ({@link AgentProgress}), each agent under an id of its own: the shape a
 * UI renders, such as the `data-agent-progress` parts of the AI SDK's `useChat`. Text,
 * tool calls and finish change the progress; the other nested chunks are dropped, and
 * every chunk that is not a nested agent's passes as it is. Per-subscription state.
 *
 * ```
 * source:  --c--a--b--f--r|     a, b: nested text 'Hel', 'lo'; f: nested finish; r: the result
 * result:  --c--A--B--F--r|     A: { text: 'Hel' }, B: { text: 'Hello' }, F: { finished: 'stop' }
 * ```
 *
 * @example
 * ```ts partial
 * import { agentProgress } from 'rx-advisors';
 * import { pipeToNodeResponse } from 'rx-advisors/sse';
 *
 * const chunks$ = planner.prompt(question).stream().chunks().pipe(agentProgress());
 * pipeToNodeResponse(chunks$, res, { protocol: 'ai-sdk-ui' });
 * ```
 * @returns An operator from chunks to chunks.
 */
export function agentProgress(): OperatorFunction<ChatChunk, ChatChunk> {
  return (source) =>
    defer(() => {
      const agents = new Map<string, AgentProgress>();
      return source.pipe(
        map((chunk): ChatChunk | undefined => {
          if (chunk.type !== 'tool-result' || chunk.preliminary !== true) return chunk;
          const nested = agentChunkOf(chunk);
          if (nested === undefined) return chunk;
          const id = `${chunk.id}:${nested.agentPath.join('/')}`;
          const before = agents.get(id) ?? {
            toolCallId: chunk.id,
            path: nested.agentPath,
            text: '',
            toolCalls: [],
            finished: undefined,
          };
          const after = advance(before, nested.chunk);
          if (after === before) return undefined;
          agents.set(id, after);
          const data: DataChunk = { type: 'data', name: 'agent-progress', id, data: after };
          return data;
        }),
        filter((chunk): chunk is ChatChunk => chunk !== undefined),
      );
    });
}

/** The progress after one nested chunk (the same object when it changes nothing). */
function advance(progress: AgentProgress, chunk: ChatChunk): AgentProgress {
  switch (chunk.type) {
    case 'text-delta':
      return { ...progress, text: progress.text + chunk.text };
    case 'tool-call':
      return { ...progress, toolCalls: [...progress.toolCalls, chunk.name] };
    case 'finish':
      return { ...progress, finished: chunk.reason };
    default:
      return progress;
  }
}
