import { concat, defer, of, type Observable } from 'rxjs';
import type { Advisor, ChatChunk, ChatRequest, DataChunk } from 'rx-advisors';

/** The data of the `data-status` part: which model call of this answer is running. */
export interface ModelCallStatus {
  /** 1 for the first model call of the answer, 2 after the first tool results, … */
  call: number;
  /** The tool results this call reads. */
  toolResults: number;
}

/**
 * An advisor inside the tool loop (order 0) that sends the page a `data` chunk before each
 * model call: `{ name: 'status', id: 'status', data: ModelCallStatus }`. The UI stream encodes
 * it as a `data-status` part; as it keeps the same `id`, `useChat` replaces the part's data
 * each round instead of adding one part per round. The model never sees it.
 *
 * @example
 * ```ts
 * const client = ChatClient.builder(model)
 *   .defaultAdvisors(new ToolCallingAdvisor({ emitToolEvents: true }), modelCallStatus)
 *   .build();
 * ```
 */
export const modelCallStatus: Advisor = {
  name: 'model-call-status',
  order: 0,
  advise: (request, chain): Observable<ChatChunk> =>
    defer(() => concat(of(statusChunk(request)), chain.next(request))),
};

function statusChunk(request: ChatRequest): DataChunk {
  const { messages } = request;
  let i = messages.length - 1;
  let toolResults = 0;
  for (; i >= 0 && messages[i].role === 'tool'; i--) toolResults++;
  let call = 1;
  for (; i >= 0 && messages[i].role !== 'user'; i--) if (messages[i].role === 'assistant') call++;
  const data: ModelCallStatus = { call, toolResults };
  return { type: 'data', name: 'status', id: 'status', data };
}
