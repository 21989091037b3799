import type { ChatResponse } from '../core/chat-response.js';
import type { ToolCall } from '../core/message.js';

/**
 * The calls of one round with unique ids: a call whose id an earlier call of the round
 * already has gets `<id>_2` (or the next free suffix), so the assistant message and its
 * tool results can be matched by id (Anthropic rejects a message that repeats one).
 * Returns `calls` itself when every id is unique.
 * @internal
 * @example
 * ```ts partial
 * uniqueToolCallIds([{ id: 'a', ... }, { id: 'a', ... }]); // ids 'a' and 'a_2'
 * ```
 * @param calls The round's calls, in order.
 * @returns The calls, the later duplicates with new ids.
 */
export function uniqueToolCallIds(calls: readonly ToolCall[]): readonly ToolCall[] {
  if (calls.length < 2) return calls;
  const seen = new Set<string>();
  let unique: ToolCall[] | undefined;
  // Ids taken by any call of the round, and the next suffix to try per repeated id.
  let taken: Set<string> | undefined;
  let nextSuffix: Map<string, number> | undefined;
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index];
    if (!seen.has(call.id)) {
      seen.add(call.id);
      continue;
    }
    unique ??= calls.slice();
    taken ??= new Set(calls.map((c) => c.id));
    nextSuffix ??= new Map();
    let suffix = nextSuffix.get(call.id) ?? 2;
    while (taken.has(`${call.id}_${suffix}`)) suffix++;
    const id = `${call.id}_${suffix}`;
    nextSuffix.set(call.id, suffix + 1);
    taken.add(id);
    seen.add(id);
    unique[index] = { ...call, id };
  }
  return unique ?? calls;
}

/**
 * Gives the round's calls under a repeated id new ids, in the response's own message (a
 * fresh object from the assembler); their `tool-call` events were held back by the
 * round's assembly and go out under the new ids.
 * @internal
 */
export function renameRepeatedIds(response: ChatResponse): readonly ToolCall[] {
  const calls = response.message.toolCalls;
  if (calls === undefined) return [];
  const unique = uniqueToolCallIds(calls);
  if (unique === calls) return [];
  response.message.toolCalls = unique.slice();
  return unique.filter((call, index) => call !== calls[index]);
}
