import { map } from 'rxjs';
import { advisor, type Advisor } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import { ToolNotFoundError } from '../errors/tool-not-found-error.js';

let guard: Advisor | undefined;

/**
 * The advisor a ChatClient call gets when it offers no tools and no tool loop: a model that
 * calls a tool anyway (a prompt that mentions one, a provider-side default) ends the call
 * with a `ToolNotFoundError` at its first complete tool call, instead of an answer with
 * empty text and finish reason `tool-calls`. A call that handles tool calls itself sets
 * `advisorParams({ toolCallingAdvisorAutoRegister: false })` and gets no guard. One
 * `type` check per chunk; it never changes a chunk.
 * @internal
 * @example
 * ```ts
 * const advisors = [...registered, noToolsGuard()];
 * ```
 * @returns The guard advisor (one shared instance), ordered where the tool loop would be.
 */
export function noToolsGuard(): Advisor {
  // One guard for every call: it holds no state (the `map` keeps none between chunks), and
  // building it per call was an advisor validation and an operator per first chunk.
  return (guard ??= advisor({
    name: 'NoToolsGuard',
    order: Order.TOOL_CALLING,
    after: map((chunk) => {
      if (chunk.type !== 'tool-call') return chunk;
      throw new ToolNotFoundError({
        toolName: chunk.name,
        available: [],
        hint:
          'The call registers no tools: offer it with defaultTools() or tools(), or set ' +
          'advisorParams({ toolCallingAdvisorAutoRegister: false }) to handle tool calls yourself.',
      });
    }),
  }));
}
