import { defaultIfEmpty, from, isObservable, map, take, type Observable } from 'rxjs';
import type { Message } from '../core/message.js';
import type { Tool } from '../core/tool.js';
import type { ToolIndex } from '../core/tool-index.js';
import { Rules, validateOptions, withDefaults } from '../core/validate-options.js';
import type { PrepareRound } from './prepare-round.js';
import { tool } from './tool-fn.js';

export type { ToolIndex };

/** Options of {@link toolSearch}. */
export interface ToolSearchOptions {
  /** The search tool's name; default `'searchTools'`. */
  name?: string;
  /** How tools are found; default {@link keywordToolIndex} (or `embeddingToolIndex`). */
  index?: ToolIndex;
  /** Tools a search returns at most; default 5. */
  maxResults?: number;
}

/**
 * The default {@link ToolIndex}: scores each tool by the query's words found in its name
 * and description (a name hit counts double), best first.
 * @example
 * ```ts
 * import { keywordToolIndex } from 'rx-advisors';
 * const names = keywordToolIndex('weather forecast', [getWeather, getTime], 3);
 * ```
 * @param query What the model looks for.
 * @param tools The tools to search.
 * @param limit How many names at most.
 * @returns The names of the matching tools.
 */
export const keywordToolIndex = (
  query: string,
  tools: readonly Tool[],
  limit: number,
): readonly string[] => {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1);
  return tools
    .map((t) => {
      const name = t.name.toLowerCase();
      const description = t.description.toLowerCase();
      let score = 0;
      for (const word of words) {
        if (name.includes(word)) score += 2;
        if (description.includes(word)) score += 1;
      }
      return { name: t.name, score };
    })
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((hit) => hit.name);
};

/**
 * Tool search for large tool sets: the model first sees only a search tool; the tools a
 * search finds are offered from the next round on. Which tools were found is read from the
 * transcript (the search tool's results), so it survives chat memory and a resumed
 * conversation; a tool list that changes (an MCP server's `list_changed`) is searched as
 * it is at each call. Give `tool` with the other tools and `prepareRound` to the loop.
 * @example
 * ```ts
 * import { ChatClient, ToolCallingAdvisor, toolSearch } from 'rx-advisors';
 *
 * const search = toolSearch({ maxResults: 3 });
 * const searching = ChatClient.builder(model)
 *   .defaultAdvisors(new ToolCallingAdvisor({ prepareRound: search.prepareRound }))
 *   .defaultTools(search.tool, getWeather, getTime)
 *   .build();
 * ```
 * @param options Name, index, result limit.
 * @returns The search tool and the loop's `prepareRound`.
 */
export function toolSearch(options: ToolSearchOptions = {}): {
  tool: Tool;
  prepareRound: PrepareRound;
} {
  const { name, index, maxResults } = withDefaults(
    { name: 'searchTools', index: keywordToolIndex, maxResults: 5 },
    validateOptions(options, {
      name: Rules.nonEmptyString,
      index: Rules.func,
      maxResults: Rules.integer(1, 100),
    }),
  );
  // The tools of the call, for the search: put in the call's context by prepareRound.
  const key = `rx-advisors.tool-search.${name}`;
  const search = tool({
    name,
    description:
      'Finds tools for a task. Call it first with a short description of what you need; ' +
      'the tools it returns can be called in the next step.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
      additionalProperties: false,
    },
    execute: ({ query }: { query: string }, context): Observable<string> => {
      const offered = (context.callContext?.get(key) ?? []) as readonly Tool[];
      const candidates = offered.filter((t) => t.name !== name);
      return namesOf(index(query, candidates, maxResults)).pipe(
        map((names) => {
          const found = candidates.filter((t) => names.includes(t.name));
          return JSON.stringify({
            tools: found.map((t) => ({ name: t.name, description: t.description })),
          });
        }),
      );
    },
  });
  const prepareRound: PrepareRound = ({ request }) => {
    request.context.set(key, request.tools);
    const found = discovered(request.messages, name);
    return {
      tools: request.tools.filter((t) => t.name === name || found.has(t.name)).map((t) => t.name),
    };
  };
  return { tool: search, prepareRound };
}

/** What an index returned, as an Observable of one list (an empty Observable: none). */
function namesOf(found: ReturnType<ToolIndex>): Observable<readonly string[]> {
  if (!isObservable(found)) return from(Promise.resolve(found));
  return found.pipe(take(1), defaultIfEmpty([] as readonly string[]));
}

/** The tool names the search tool's results in the transcript name. */
function discovered(messages: readonly Message[], searchName: string): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'tool' || message.name !== searchName || message.isError === true)
      continue;
    try {
      const parsed = JSON.parse(message.content) as { tools?: { name?: unknown }[] };
      for (const found of parsed.tools ?? []) {
        if (typeof found.name === 'string') names.add(found.name);
      }
    } catch {
      // Not a result of ours: nothing discovered from it.
    }
  }
  return names;
}
