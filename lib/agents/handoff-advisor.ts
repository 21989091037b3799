import { concat, defer, EMPTY, filter, of, throwError, type Observable } from 'rxjs';
import type { Advisor, AdvisorChain } from '../advisor-api/advisor.js';
import type { ToolContributor } from '../advisor-api/advisor-roles.js';
import { CallInterceptors } from '../advisor-api/call-interceptors.js';
import { ContextKeys } from '../advisor-api/context-keys.js';
import { callDepth } from '../advisor-api/parent-call.js';
import type { ChatChunk, DataChunk } from '../core/chat-chunk.js';
import type { ChatRequest } from '../core/chat-request.js';
import type { Message } from '../core/message.js';
import type { Tool } from '../core/tool.js';
import { ToolLoopTranscript } from '../core/tool-loop-transcript.js';
import { validateOptions, withDefaults } from '../core/validate-options.js';
import { AgentDepthError } from '../errors/agent-depth-error.js';
import { tool } from '../tools/tool-fn.js';
import { AGENT_FRAME_KEY, agentPathOf, type AgentFrame } from './agent-frame.js';
import {
  conversationText,
  HANDOFF_DEFAULTS,
  HANDOFF_RULES,
  type Handoff,
  type HandoffAdvisorOptions,
} from './handoff-options.js';

/**
 * What the `data` chunk named `agent` carries: the agent that speaks from there on (its
 * name and the path of agents from the top-level call).
 * @example
 * ```ts
 * import type { AgentSpeaker } from 'rx-advisors';
 * const speaker: AgentSpeaker = { name: 'billing', path: ['billing'] };
 * ```
 */
export interface AgentSpeaker {
  readonly name: string;
  readonly path: readonly string[];
}

/**
 * Handoffs: the model may hand the rest of the turn to another agent (a `ChatClient` with
 * its own system text, tools and model), as in a triage agent that passes a customer to
 * billing. Each handoff is a tool the model sees (return-direct: the loop ends when the
 * model calls it); the advisor then runs the chosen agent on the conversation so far
 * (filtered by the handoff's `history`), linked to this call (`ContextKeys.PARENT_CALL`,
 * so inherited interceptors apply), and its chunks continue this stream after a `data`
 * chunk named `agent` ({@link AgentSpeaker}) that says who speaks. The text of the handing
 * agent after the handoff call and its `finish` are dropped; the usage of both is in the
 * stream. A memory advisor outside it records the turn under the same conversation.
 *
 * ```
 * own:     --a--h--(tuf|)          h: the handoff call; t: its return-direct text; f: finish
 * target:                  --b--(Uf|)
 * result:  --a--h--(uS)--b--(Uf|)  S: data 'agent' (the target's name)
 * ```
 *
 * @example
 * ```ts
 * import { ChatClient, HandoffAdvisor } from 'rx-advisors';
 * import { MockChatModel } from 'rx-advisors/testing';
 *
 * const billing = ChatClient.builder(MockChatModel.script([{ text: 'Your refund is on its way.' }]))
 *   .defaultSystem('You are the billing agent.')
 *   .build();
 * const triage = ChatClient.builder(
 *   MockChatModel.script([{ toolCalls: [{ name: 'transfer_to_billing', arguments: {} }] }]),
 * )
 *   .defaultAdvisors(
 *     new HandoffAdvisor({
 *       handoffs: [{ client: billing, name: 'transfer_to_billing', description: 'Refunds, invoices' }],
 *     }),
 *   )
 *   .build();
 * triage.prompt('Where is my refund?').call().content().subscribe(console.log);
 * ```
 */
export class HandoffAdvisor implements Advisor, ToolContributor {
  readonly name: string;
  readonly order: number;
  readonly contributesTools = true;
  private readonly maxDepth: number;
  private readonly handoffs: ReadonlyMap<string, Handoff>;
  private readonly tools: readonly Tool[];

  /** @param options The agents to hand over to; optionally the order and the depth limit. */
  constructor(options: HandoffAdvisorOptions) {
    const resolved = withDefaults(HANDOFF_DEFAULTS, validateOptions(options, HANDOFF_RULES));
    this.order = resolved.order;
    this.name = resolved.name;
    this.maxDepth = resolved.maxDepth;
    this.handoffs = new Map(resolved.handoffs.map((handoff) => [handoff.name, handoff]));
    this.tools = resolved.handoffs.map((handoff) =>
      tool({
        name: handoff.name,
        description: handoff.description,
        parameters: { type: 'object', properties: {}, additionalProperties: false },
        returnDirect: true,
        execute: () => `Transferred to ${handoff.name}.`,
      }),
    );
  }

  /**
   * Offers the handoff tools, runs the chain, then the chosen agent if the model handed over.
   * @param request The call's request.
   * @param chain The rest of the chain.
   * @returns This agent's chunks, then (after a handoff) the target's.
   */
  advise(request: ChatRequest, chain: AdvisorChain): Observable<ChatChunk> {
    return defer(() => {
      const { context } = request;
      let chosen: Handoff | undefined;
      CallInterceptors.of(context).onToolCall(this, {
        intercept: (invocation, proceed) => {
          chosen ??= this.handoffs.get(invocation.call.name);
          return proceed(invocation.call);
        },
      });
      const transcript = ToolLoopTranscript.of(context);
      const mark = transcript.mark();
      const own$ = chain
        .next(request.withTools([...request.tools, ...this.tools]))
        // After the handoff call, this agent's turn is over: its text (the return-direct
        // result) and its finish give way to the target's.
        .pipe(filter((chunk) => chosen === undefined || !endsTheTurn(chunk)));
      return concat(
        own$,
        defer(() =>
          chosen === undefined
            ? EMPTY
            : this.handOver(chosen, request, [...request.messages, ...transcript.since(mark)]),
        ),
      );
    });
  }

  private handOver(
    target: Handoff,
    request: ChatRequest,
    conversation: readonly Message[],
  ): Observable<ChatChunk> {
    const { context } = request;
    const path = [...agentPathOf(context), target.name];
    const depth = callDepth(context) + 1;
    if (depth > this.maxDepth) {
      return throwError(
        () => new AgentDepthError({ agentName: target.name, path, depth, maxDepth: this.maxDepth }),
      );
    }
    const frame: AgentFrame = { name: target.name, path, identity: target.client };
    const speaker: DataChunk = {
      type: 'data',
      name: 'agent',
      data: { name: target.name, path } satisfies AgentSpeaker,
    };
    const history = (target.history ?? conversationText)(conversation);
    const target$ = target.client
      .prompt()
      .messages(...history)
      .advisorParams({ [ContextKeys.PARENT_CALL]: context, [AGENT_FRAME_KEY]: frame })
      .stream()
      .chunks();
    return concat(of(speaker), target$);
  }
}

function endsTheTurn(chunk: ChatChunk): boolean {
  return chunk.type === 'text-delta' || chunk.type === 'finish';
}
