import type { Observable } from 'rxjs';
import type { ChatClient } from '../client/chat-client.js';
import type { PromptSpec } from '../client/prompt-spec.js';
import type { ChatResponse } from '../core/chat-response.js';
import type { ToolContext } from '../core/tool.js';
import type { JsonSchema } from '../core/tool-definition.js';
import { Rules, type OptionRules } from '../core/validate-options.js';
import type { ZodLikeSchema } from '../schema/zod-like-schema.js';

/**
 * What a nested agent's failure does to the parent: `report` (the default) turns it into
 * an error tool result the parent model reads; `throw` fails the parent's stream with an
 * `AgentRunError` (or the `AgentDepthError` / `AgentCycleError` that refused it).
 * @example
 * ```ts
 * import type { AgentErrorPolicy } from 'rx-advisors';
 * const strict: AgentErrorPolicy = 'throw';
 * ```
 */
export type AgentErrorPolicy = 'report' | 'throw';

/**
 * Options of `agentTool`. Only `client`, `name` and `description` are required: by
 * default the tool takes `{ task: string }` and sends the task as the user text.
 * @example
 * ```ts partial
 * import type { AgentToolOptions } from 'rx-advisors';
 * const options: AgentToolOptions = {
 *   client: researcher,
 *   name: 'research',
 *   description: 'Researches a question on the web and answers with sources',
 *   maxDepth: 2,
 * };
 * ```
 */
export interface AgentToolOptions<TArgs = { task: string }> {
  /** The agent: a configured client (its own advisors, tools, memory, model). */
  client: ChatClient;
  /** The tool's name, what the parent model calls (letters, digits, `_`, `-`). */
  name: string;
  /** What the agent does and when to delegate to it; the parent model reads this. */
  description: string;
  /** The input the parent model sends; default `{ task: string }` (required). */
  parameters?: JsonSchema | ZodLikeSchema;
  /**
   * The nested call for the arguments; default `client.prompt(args.task)`. The tool
   * links it to the parent call (`ContextKeys.PARENT_CALL`) whatever it returns.
   */
  prompt?: (args: TArgs, context: ToolContext) => PromptSpec;
  /**
   * What the parent model sees of the run; default its final text (`response.text`). A
   * summary: a function that shortens it (it may return a Promise or an Observable, such
   * as another model's call).
   */
  output?: (response: ChatResponse) => string | PromiseLike<string> | Observable<string>;
  /** How deep this agent may run (1: called by a top-level call); default 3. */
  maxDepth?: number;
  /** What the agent's failure does to the parent; default `report`. */
  onError?: AgentErrorPolicy;
  /** Milliseconds (RxJS time) the whole run may take; default the parent loop's `toolTimeout`. */
  timeout?: number;
}

/** The defaults of {@link AgentToolOptions}. @internal */
export const AGENT_TOOL_DEFAULTS: {
  readonly maxDepth: number;
  readonly onError: AgentErrorPolicy;
} = Object.freeze({ maxDepth: 3, onError: 'report' });

/** The input schema when `parameters` is not given. @internal */
export const TASK_PARAMETERS = Object.freeze({
  type: 'object',
  properties: { task: { type: 'string', description: 'The task, in full sentences' } },
  required: ['task'],
  additionalProperties: false,
}) satisfies JsonSchema;

/** @internal */
export const AGENT_TOOL_RULES: OptionRules<AgentToolOptions<unknown>> = {
  client: Rules.required(
    Rules.custom(
      'a ChatClient (an object with prompt())',
      (value) => typeof (value as { prompt?: unknown }).prompt === 'function',
    ),
  ),
  name: Rules.required(Rules.nonEmptyString),
  description: Rules.required(Rules.nonEmptyString),
  prompt: Rules.func,
  output: Rules.func,
  maxDepth: Rules.integer(1),
  onError: Rules.oneOf('report', 'throw'),
  timeout: Rules.positive,
};
