import type { ChatClient } from '../client/chat-client.js';
import type { Message } from '../core/message.js';
import { Order } from '../advisor-api/order.js';
import { ADVISOR_IDENTITY_RULES } from '../advisor-api/validate-advisor-identity.js';
import { Rules, type OptionRules } from '../core/validate-options.js';

/**
 * One agent a conversation can be handed to: the client that answers the rest of the
 * turn, the tool name the model calls to hand over, and what history it sees.
 * @example
 * ```ts partial
 * import type { Handoff } from 'rx-advisors';
 * const toBilling: Handoff = {
 *   client: billingAgent,
 *   name: 'transfer_to_billing',
 *   description: 'Hand the customer to billing for invoices, refunds and payments',
 * };
 * ```
 */
export interface Handoff {
  /** The agent that takes over: its own system text, advisors, tools and model. */
  client: ChatClient;
  /** The handoff tool's name (what the model calls); also the agent's name in the stream. */
  name: string;
  /** When to hand over; the model reads this. */
  description: string;
  /**
   * What the agent taking over sees of the conversation so far (the call's messages, then
   * what the tool loop added, the handoff call included); default: the user messages and
   * the assistant messages that call no tool (no system messages, tool calls or results).
   */
  history?: (messages: readonly Message[]) => readonly Message[];
}

/**
 * Options of `HandoffAdvisor`.
 * @example
 * ```ts partial
 * import { HandoffAdvisor } from 'rx-advisors';
 * const triage = new HandoffAdvisor({ handoffs: [toBilling, toSupport], maxDepth: 4 });
 * ```
 */
export interface HandoffAdvisorOptions {
  /** The agents this one may hand the conversation to (at least one). */
  handoffs: readonly Handoff[];
  /**
   * Position in the chain; default `Order.TOOL_CALLING - 50`: inside the memory advisors
   * (the turn is recorded under the same conversation, whoever answers), outside the loop.
   */
  order?: number;
  /** The advisor's name (logs, telemetry); default `'HandoffAdvisor'`. */
  name?: string;
  /** How many calls deep a handoff may run (each handoff nests one level); default 5. */
  maxDepth?: number;
}

/** @internal */
export const HANDOFF_DEFAULTS = Object.freeze({
  order: Order.TOOL_CALLING - 50,
  name: 'HandoffAdvisor',
  maxDepth: 5,
});

/** @internal */
export const HANDOFF_RULES: OptionRules<HandoffAdvisorOptions> = {
  handoffs: Rules.required(
    Rules.custom(
      'a non-empty array of { client, name, description, history? }',
      (value) =>
        Array.isArray(value) &&
        value.length > 0 &&
        value.every(
          (h: Partial<Handoff>) =>
            typeof h?.client?.prompt === 'function' &&
            typeof h.name === 'string' &&
            typeof h.description === 'string' &&
            (h.history === undefined || typeof h.history === 'function'),
        ),
    ),
  ),
  ...ADVISOR_IDENTITY_RULES,
  maxDepth: Rules.integer(1),
};

/**
 * The default history filter: the user messages and the assistant messages that call no
 * tool (a message that called tools goes, preamble included: the target must not read
 * calls of tools it does not have, nor see an assistant message last).
 * @internal
 */
export function conversationText(messages: readonly Message[]): Message[] {
  const kept: Message[] = [];
  for (const message of messages) {
    if (message.role === 'user') kept.push(message);
    else if (message.role === 'assistant' && message.toolCalls === undefined) kept.push(message);
  }
  return kept;
}
