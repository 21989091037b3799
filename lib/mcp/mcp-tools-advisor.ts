import { defer, finalize, forkJoin, switchMap, type Observable } from 'rxjs';
import type { ToolContributor } from '../advisor-api/advisor-roles.js';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES, narrowOrder } from '../advisor-api/validate-advisor-identity.js';
import type { ChatChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import {
  Rules,
  validateOptions,
  withDefaults,
  type OptionRules,
} from '../core/validate-options.js';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { uniqueTools } from '../tools/unique-tools.js';
import { McpToolSource } from './mcp-tool-source.js';
import type { McpToolSourceOptions } from './mcp-tool-source-options.js';
import { withProgressChunks } from './progress-chunks.js';

/** Name and order of the advisor `mcpToolsAdvisor` makes. */
interface McpToolsAdvisorIdentity {
  /** Default `'McpToolsAdvisor'`. */
  name?: string;
  /** Must run before the tool loop; default `Order.MCP_TOOLS` (`Order.TOOL_CALLING - 1`). */
  order?: number;
  /**
   * Send each progress notification of a running MCP call as a transient `data` chunk
   * (`name: 'tool-progress'`, `id`: the tool call id). Default `true`.
   */
  emitProgress?: boolean;
}

/**
 * Options of {@link mcpToolsAdvisor}: shared sources (`{ source }`), or a server to open
 * for each call (the options of `McpToolSource`: connected when the call starts, closed
 * when its stream ends, fails or is unsubscribed).
 *
 * @example
 * ```ts
 * import type { McpToolsAdvisorOptions } from 'rx-advisors/mcp';
 * const perCall: McpToolsAdvisorOptions = { server: { command: 'node', args: ['server.mjs'] } };
 * ```
 */
export type McpToolsAdvisorOptions =
  | ({ source: McpToolSource | readonly McpToolSource[] } & McpToolsAdvisorIdentity)
  | (McpToolSourceOptions & McpToolsAdvisorIdentity);

const DEFAULTS = Object.freeze({
  name: 'McpToolsAdvisor',
  order: Order.MCP_TOOLS,
  emitProgress: true,
});

const RULES: OptionRules<McpToolsAdvisorIdentity> = {
  ...ADVISOR_IDENTITY_RULES,
  order: narrowOrder(
    Rules.custom(
      'a number lower than Order.TOOL_CALLING (the loop runs only the tools it is offered)',
      (value) => typeof value === 'number' && value < Order.TOOL_CALLING,
    ),
  ),
  emitProgress: Rules.boolean,
};

/**
 * An advisor that offers an MCP server's tools to every call it is part of: it lists them
 * (cached by the source) before the call goes on, adds them to the request's tools (a
 * name two tools share fails the call before any model call) and declares
 * `contributesTools`, so `ChatClient` adds the tool loop. Progress notifications of its
 * MCP calls come out as transient `data` chunks named `tool-progress` (`emitProgress`).
 *
 * @example
 * ```ts
 * import { ChatClient } from 'rx-advisors';
 * import { McpToolSource, mcpToolsAdvisor } from 'rx-advisors/mcp';
 * import { MockChatModel } from 'rx-advisors/testing';
 *
 * const weather = new McpToolSource({ server: { url: 'http://127.0.0.1:3000/mcp' } });
 * const client = ChatClient.builder(MockChatModel.script([{ text: 'Sunny.' }]))
 *   .defaultAdvisors(mcpToolsAdvisor({ source: weather }))
 *   .build();
 * client.prompt('Weather in Paris?').call().content().subscribe(console.log);
 * ```
 * @param options The sources, or one server to open per call; `name`, `order`.
 * @returns An advisor with `contributesTools: true`.
 */
export function mcpToolsAdvisor(options: McpToolsAdvisorOptions): Advisor & ToolContributor {
  const { name, order, emitProgress } = withDefaults(DEFAULTS, validateOptions(options, RULES));
  const shared = 'source' in options ? sourcesOf(options.source) : undefined;
  // Validates the server options up front; the per-call sources are made from them.
  if (shared === undefined) new McpToolSource(options as McpToolSourceOptions);
  return Object.freeze({
    name,
    order,
    contributesTools: true as const,
    advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
      if (shared !== undefined) return withTools$(emitProgress, shared, request, chain);
      return defer(() => {
        const source = new McpToolSource(options as McpToolSourceOptions);
        return withTools$(emitProgress, [source], request, chain).pipe(
          // Nothing is left to report a failed close to: the stream is already torn down.
          finalize(() => void source.close().catch(() => undefined)),
        );
      });
    },
  });
}

function withTools$(
  emitProgress: boolean,
  sources: readonly McpToolSource[],
  request: ChatRequest,
  chain: AdvisorChain,
): Observable<ChatChunk> {
  return forkJoin(sources.map((source) => defer(() => source.listTools()))).pipe(
    switchMap((lists) => {
      const tools = uniqueTools([...request.tools, ...lists.flat()]);
      if (!emitProgress) return chain.next(request.withTools(tools));
      return withProgressChunks(tools, (reporting) => chain.next(request.withTools(reporting)));
    }),
  );
}

function sourcesOf(source: unknown): readonly McpToolSource[] {
  const sources = Array.isArray(source) ? (source as unknown[]) : [source];
  if (sources.length === 0 || !sources.every((s) => s instanceof McpToolSource)) {
    throw new InvalidOptionsError({
      option: 'source',
      value: source,
      expected: 'an McpToolSource or a non-empty array of them',
    });
  }
  return sources;
}
