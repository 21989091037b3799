import type { ChatOptions, ToolChoice } from '../core/chat-options.js';
import type { ChatRequest, RequestChatModel } from '../core/chat-request.js';
import type { Message } from '../core/message.js';
import { LoopHookError } from '../errors/loop-hook-error.js';
import type { ToolLoopState } from './tool-loop-state.js';

/**
 * What `prepareRound` may change for one round (and only that round: the next round is
 * built from the unprepared request). Every field is optional.
 * @example
 * ```ts
 * import type { RoundPreparation } from 'rx-advisors';
 * const searchOnly: RoundPreparation = { tools: ['search'], toolChoice: 'required' };
 * ```
 */
export interface RoundPreparation {
  /** Another model for this round (`ChatRequest.withChatModel`). */
  model?: RequestChatModel;
  /** The names of the offered tools this round offers; the model may call only these. */
  tools?: readonly string[];
  /** Shorthand for `options: { toolChoice }`. */
  toolChoice?: ToolChoice;
  /** Options merged over the request's for this round. */
  options?: ChatOptions;
  /** The messages this round sends (trimmed, summarised); the transcript itself is kept. */
  messages?: readonly Message[];
}

/**
 * Prepares a round: receives the round number and the request about to be sent (its
 * messages are the transcript so far) and returns what to change for that round, or
 * `undefined` for nothing. Synchronous; runs before every model call of the loop.
 * @example
 * ```ts
 * import { ToolCallingAdvisor } from 'rx-advisors';
 * const loop = new ToolCallingAdvisor({
 *   prepareRound: ({ round }) => (round === 1 ? { toolChoice: 'required' } : undefined),
 * });
 * ```
 */
export type PrepareRound = (input: {
  readonly round: number;
  readonly request: ChatRequest;
  readonly state: ToolLoopState;
}) => RoundPreparation | undefined | null;

const KEYS = new Set(['model', 'tools', 'toolChoice', 'options', 'messages']);
const EXPECTED =
  'undefined, or { model?: a chat model, tools?: names of offered tools, toolChoice?, options?: object, messages?: Message[] }';

/**
 * The request a round sends after `prepareRound`; what it throws or returns amiss fails
 * the loop with a `LoopHookError` naming `prepareRound`.
 * @internal
 */
export function prepareRequest(
  request: ChatRequest,
  prepare: PrepareRound,
  state: ToolLoopState,
): ChatRequest {
  const { round } = state;
  let prepared: unknown;
  try {
    prepared = prepare({ round, request, state });
  } catch (cause) {
    throw new LoopHookError({ hook: 'prepareRound', round, cause });
  }
  if (prepared === undefined || prepared === null) return request;
  const invalid = (expected: string): LoopHookError =>
    new LoopHookError({ hook: 'prepareRound', round, returned: prepared, expected });
  if (typeof prepared !== 'object' || Object.keys(prepared).some((key) => !KEYS.has(key))) {
    throw invalid(EXPECTED);
  }
  const { model, tools, toolChoice, options, messages } = prepared as RoundPreparation;
  let sent = request;
  if (messages !== undefined) {
    const list: unknown = messages;
    const isMessage = (m: unknown): boolean =>
      typeof m === 'object' && m !== null && typeof (m as { role?: unknown }).role === 'string';
    if (!Array.isArray(list) || !list.every(isMessage)) {
      throw invalid('messages: an array of messages');
    }
    sent = sent.withMessages(messages);
  }
  if (options !== undefined || toolChoice !== undefined) {
    if (options !== undefined && (typeof options !== 'object' || options === null)) {
      throw invalid('options: an object of chat options');
    }
    sent = sent.withOptions(toolChoice === undefined ? options! : { ...options, toolChoice });
  }
  if (model !== undefined) {
    if (typeof (model as Partial<RequestChatModel>).stream !== 'function') {
      throw invalid('model: a chat model (with a stream function)');
    }
    sent = sent.withChatModel(model);
  }
  if (tools !== undefined) {
    const offered = new Map(request.tools.map((tool) => [tool.name, tool]));
    const names: unknown = tools;
    const isOffered = (name: unknown): boolean => typeof name === 'string' && offered.has(name);
    if (!Array.isArray(names) || !names.every(isOffered)) {
      throw invalid(`tools: names of offered tools (${[...offered.keys()].join(', ')})`);
    }
    sent = sent.withTools(tools.map((name) => offered.get(name)!));
  }
  return sent;
}
